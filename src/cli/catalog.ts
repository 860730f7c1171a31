/**
 * The catalog as commands use it: opened per command over the context's file system (SQLite on
 * the real disk where the runtime has it, else the file store; `PI_SESSION_CATALOG` may force
 * `sqlite`, `file` or `off`), and the session files of a command's scope.
 * @module
 */
import { type Catalog, type RefreshOptions } from "../catalog/catalog.ts";
import { catalogSessions, listingKinds, type SessionFiles } from "../catalog/list-cached.ts";
import { type CatalogMode, defaultCacheDir, openCatalog } from "../catalog/open-catalog.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import { joinPath } from "../core/storage/paths.ts";
import { bunFileSystem } from "../io/bun.ts";
import { denoFileSystem } from "../io/deno.ts";
import { nodeFileSystem } from "../io/node.ts";
import { allSessionFiles, sessionFilesIn } from "../session/list-sessions.ts";
import type { CliContext } from "./context.ts";
import { startProgress } from "./progress.ts";

const MODES: readonly string[] = ["auto", "sqlite", "file", "off"];

/**
 * Runs `work` with the catalog for `ctx`, and closes it afterwards. `verify` checks a SQLite
 * catalog in full first (a damaged one is set aside and rebuilt); `reportsSaves` is for a
 * command that reports a failed save itself (no note then).
 */
export async function withCatalog<T>(ctx: CliContext, work: (catalog: Catalog) => Promise<T>, options: { verify?: boolean; reportsSaves?: boolean } = {}): Promise<T> {
  const wanted = ctx.deps.storage.env("PI_SESSION_CATALOG") ?? "auto";
  const mode = (MODES.includes(wanted) ? wanted : "auto") as CatalogMode;
  const catalog = await openCatalog({
    fs: ctx.fs,
    cacheDir: defaultCacheDir(ctx.deps.storage),
    mode,
    realDisk: ctx.fs === nodeFileSystem || ctx.fs === denoFileSystem || ctx.fs === bunFileSystem,
    // Deno's adapter waits on its reads: a few files at once keep the disk busy meanwhile.
    concurrency: ctx.fs === denoFileSystem ? 4 : undefined,
    note: (message) => ctx.note(`pi-session: ${message}`),
    verify: options.verify,
    noteSaveFailures: !options.reportsSaves,
    now: ctx.deps.now,
  });
  try {
    return await work(catalog);
  } finally {
    catalog.close();
  }
}

/** The session files of a command's scope, and how to tell which of them belong to it. */
export interface SessionScope extends SessionFiles {
  /** For a flat custom session dir without `--all`: keep sessions whose header cwd is this. */
  cwdFilter?: string;
}

/** Where a scope's sessions are, without listing anything: its directories and cwd filter. */
export async function scopePlaces(ctx: CliContext, all: boolean): Promise<Omit<SessionScope, "files">> {
  const choice = await ctx.sessionDir();
  if (all) return { dirs: [choice.custom ? choice.dir : joinPath(ctx.agentDir, "sessions")] };
  return { dirs: [choice.dir], cwdFilter: choice.custom ? ctx.cwd : undefined };
}

/** This directory's sessions, or with `all` every project's (or the custom dir's). */
export async function sessionScope(ctx: CliContext, all: boolean): Promise<SessionScope> {
  const places = await scopePlaces(ctx, all);
  const { custom } = await ctx.sessionDir();
  // Every project: one folder per cwd under the sessions dir; else the one flat folder.
  const files = all && !custom ? await allSessionFiles(ctx.fs, ctx.agentDir) : await sessionFilesIn(ctx.fs, places.dirs[0]);
  return { ...places, files };
}

/** Refresh options with a progress line for `label`, and the function that clears it. */
export function withProgress(ctx: CliContext, label: string, options: RefreshOptions = {}): [RefreshOptions, () => void] {
  const progress = startProgress(ctx, label);
  return [{ ...options, onProgress: (done, total) => progress.update(done, total) }, () => progress.end()];
}

/**
 * The sessions of a scope through the catalog, newest first (what `list` shows); `withText`
 * fills `allMessagesText` for searching; `knownIds` also gives the ids of every session (of
 * every project), to shorten printed ids by.
 */
export async function cataloguedSessions(
  ctx: CliContext,
  all: boolean,
  options: { withText?: boolean; knownIds?: boolean } = {},
): Promise<{ sessions: SessionInfo[]; knownIds: string[] }> {
  return withCatalog(ctx, async (catalog) => {
    catalog.preload(listingKinds(options.withText));
    const scope = await sessionScope(ctx, all);
    const [progress, done] = withProgress(ctx, "Reading sessions");
    try {
      const processCwd = ctx.deps.storage.processCwd;
      const sessions = await catalogSessions(catalog, scope, { ...progress, withText: options.withText, cwdFilter: scope.cwdFilter, processCwd });
      if (!options.knownIds) return { sessions, knownIds: [] };
      // Every project's sessions are those just listed, unless the scope was this directory.
      const everywhere = all ? sessions : await catalogSessions(catalog, await sessionScope(ctx, true), { ...progress, processCwd });
      return { sessions, knownIds: everywhere.map((s) => s.id) };
    } finally {
      done();
    }
  });
}
