/**
 * The session files a query covers (this directory's, or with `all` every project's) and the
 * catalog views over them; the catalog itself comes from the env (`env.withCatalog`).
 * @module
 */
import { type Catalog, type RefreshOptions } from "../catalog/catalog.ts";
import type { CheckMode } from "../catalog/folder-check.ts";
import type { DigestKind } from "../core/digest/digester.ts";
import { catalogSessions, listingKinds, recordsInfo, type SessionFiles } from "../catalog/list-cached.ts";
import { type CatalogRecord, recordState } from "../catalog/store.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import { joinPath } from "../core/storage/paths.ts";
import { oneLine } from "../render/control-chars.ts";
import { allSessionFiles, sessionFilesIn, sortByModified } from "../session/list-sessions.ts";
import type { CatalogUse, QueryEnv } from "./env.ts";
import { textsCollector } from "./walk-garbage.ts";

/** Runs `work` with the env's catalog (`env.withCatalog`). */
export function withCatalog<T>(env: QueryEnv, work: (catalog: Catalog) => Promise<T>, options?: CatalogUse): Promise<T> {
  return env.withCatalog(work, options);
}

/** The session files of a command's scope, and how to tell which of them belong to it. */
export interface SessionScope extends SessionFiles {
  /** For a flat custom session dir without `--all`: keep sessions whose header cwd is this. */
  cwdFilter?: string;
}

/** Where a scope's sessions are, without listing anything: its directories and cwd filter. */
export async function scopePlaces(env: QueryEnv, all: boolean): Promise<Omit<SessionScope, "files">> {
  const choice = await env.sessionDir();
  if (all) return { dirs: [choice.custom ? choice.dir : joinPath(env.agentDir, "sessions")] };
  return { dirs: [choice.dir], cwdFilter: choice.custom ? env.cwd : undefined };
}

/**
 * This directory's sessions, or with `all` every project's (or the custom dir's). Through
 * `catalog`, folders unchanged since it last listed them are not listed again, and the scope
 * carries the listing for the catalog's quick check (pass the scope's `listing` to a refresh);
 * with `check` full, every folder is listed and the listing asks for a full check.
 */
export async function sessionScope(env: QueryEnv, all: boolean, catalog?: Catalog, check?: CheckMode): Promise<SessionScope> {
  const places = await scopePlaces(env, all);
  const { custom } = await env.sessionDir();
  // Every project: one folder per cwd under the sessions dir; else the one flat folder.
  const nested = all && !custom;
  if (catalog) {
    const listing = await catalog.listFiles(places.dirs[0], nested, check);
    // Made on first use: a search the catalog's coverage answers needs no path of its files.
    return { ...places, get files() {
      return listing.files;
    }, listing };
  }
  const files = nested ? await allSessionFiles(env.fs, env.agentDir) : await sessionFilesIn(env.fs, places.dirs[0]);
  return { ...places, files };
}

/** Refresh options, and where a scan that reads files itself reports one it skips (search). */
export interface ProgressOptions extends RefreshOptions {
  onBadHeader(path: string, problem: string): void;
}

/**
 * Refresh options with a progress reporter for `label`, and the function that ends it. Files
 * skipped for a header that cannot be used (`badHeader`) get a one-line note each, once the
 * progress is over: a scan never stops for one bad file, and never hides it either (unless
 * `notes.badHeaders` is false: a caller whose own walk told of them already).
 */
export function withProgress(env: QueryEnv, label: string, options: RefreshOptions = {}, notes: { badHeaders?: boolean } = {}): [ProgressOptions, () => void] {
  const progress = env.report.progress(label);
  const skipped = new Map<string, string>();
  const onRecords = (path: string, records: readonly CatalogRecord[]) => {
    options.onRecords?.(path, records);
    for (const record of records) {
      const why = recordState(record).badHeader;
      if (why !== undefined) skipped.set(path, why);
    }
  };
  const end = () => {
    progress.end();
    if (notes.badHeaders !== false) for (const [path, why] of skipped) env.report.note(`pi-session: skipped ${oneLine(path)}: line 1 is a session header but ${why}`);
    skipped.clear();
  };
  const onBadHeader = (path: string, why: string) => skipped.set(path, why);
  return [{ ...options, onProgress: (done, total) => progress.update(done, total), onRecords, onBadHeader }, end];
}

/**
 * The sessions of a scope through the catalog, newest first (what `list` shows); `withText`
 * fills `allMessagesText` for searching; `knownIds` also gives the ids of every session (of
 * every project), to shorten printed ids by. With `keep`, the sessions may come filtered by it
 * already, their texts let go (then `kept` is true).
 */
export async function cataloguedSessions(
  env: QueryEnv,
  all: boolean,
  options: { withText?: boolean; knownIds?: boolean; keep?: (info: SessionInfo) => boolean; badHeaders?: boolean } = {},
): Promise<{ sessions: SessionInfo[]; knownIds: string[]; kept?: true }> {
  return withCatalog(env, async (catalog) => {
    const processCwd = env.storage.processCwd;
    // With `keep` (a search), the sessions kept alone where the catalog is current; loading every
    // section first would hold every session's texts (607 MB at 25,000 sessions).
    let kept = options.keep && await keptSessions(catalog, await sessionScope(env, all, catalog), options.keep, { withText: options.withText, processCwd });
    if (!kept && !options.keep) catalog.preload(listingKinds(options.withText));
    const [progress, done] = withProgress(env, "Reading sessions", {}, { badHeaders: options.badHeaders });
    try {
      // Not current: the sessions it keeps are tested as their records come, none held past its
      // test (holding them for a cold `list --all --search` of 25,000 sessions took 505 MB).
      if (!kept && options.keep) kept = await refreshedSessions(catalog, await sessionScope(env, all, catalog), options.keep, { withText: options.withText, processCwd, progress });
      if (kept) {
        if (!options.knownIds) return { sessions: kept.sessions, knownIds: [], kept: true };
        if (all) return { sessions: kept.sessions, knownIds: kept.ids, kept: true };
        const everywhere = await catalogSessions(catalog, await sessionScope(env, true, catalog), { ...progress, processCwd });
        return { sessions: kept.sessions, knownIds: everywhere.map((s) => s.id), kept: true };
      }
      const scope = await sessionScope(env, all, catalog);
      const sessions = await catalogSessions(catalog, scope, { ...progress, withText: options.withText, cwdFilter: scope.cwdFilter, processCwd });
      if (!options.knownIds) return { sessions, knownIds: [] };
      // Every project's sessions are those just listed, unless the scope was this directory.
      const everywhere = all ? sessions : await catalogSessions(catalog, await sessionScope(env, true, catalog), { ...progress, processCwd });
      return { sessions, knownIds: everywhere.map((s) => s.id) };
    } finally {
      done();
    }
  });
}

/** Stored records of this many sessions are loaded at a time by `eachCurrentRecord`. */
const CURRENT_SLICE = 200;

/**
 * Hands `visit` each file of `scope` with its stored records of `kinds` (the first's, then the
 * others' where stored), a slice of files at a time, each let go before the next: where every
 * section of `kinds` is current for the scope by the catalog's `unchanged` (the quick check where
 * it can). False where it cannot (not current, a record that no longer loads, a store error),
 * having handed on none or some: the caller drops what it got and refreshes the scope instead.
 */
export async function eachCurrentRecord(
  catalog: Catalog,
  kinds: readonly DigestKind<unknown, unknown>[],
  scope: SessionScope,
  visit: (path: string, records: readonly CatalogRecord[]) => void,
): Promise<boolean> {
  const store = catalog.store;
  const listing = scope.listing;
  if (!store?.loadPaths || !listing) return false;
  for (const kind of kinds) if (!await catalog.unchanged(kind, undefined, { listing, listedDirs: scope.dirs, readChanged: true })) return false;
  const files = scope.files;
  try {
    for (let at = 0; at < files.length; at += CURRENT_SLICE) {
      const paths = files.slice(at, at + CURRENT_SLICE);
      const [first, ...others] = await Promise.all(kinds.map((kind) => store.loadPaths!(kind, paths)));
      for (const path of paths) {
        const record = first.get(path);
        // A record that no longer loads: the refresh reads its file again.
        if (record === undefined) return false;
        visit(path, [record, ...others.flatMap((records) => records.get(path) ?? [])]);
      }
    }
  } catch {
    return false;
  }
  return true;
}

/**
 * What a walk of `scope`'s records keeps: each file's session where `keep` accepts it (a copy
 * without its message texts), and every session's id in `ids`; the texts walked are collected
 * as they go (`textsCollector`).
 */
function keeping(scope: SessionScope, keep: (info: SessionInfo) => boolean, options: { withText?: boolean; processCwd: string }) {
  const ids: string[] = [];
  const collect = textsCollector();
  const kept = (path: string, records: readonly CatalogRecord[]): SessionInfo | undefined => {
    const info = recordsInfo(path, records, { cwdFilter: scope.cwdFilter, processCwd: options.processCwd });
    if (info === null) return undefined;
    collect(info.allMessagesText);
    ids.push(info.id);
    if (!keep(info)) return undefined;
    // A copy without the texts: what the search made of them (its lowered copy, kept per session
    // object) goes with the session tested, not with the one kept.
    return options.withText ? { ...info, allMessagesText: "" } : info;
  };
  return { ids, kept };
}

/**
 * `keptSessions` through a refresh of `scope`, which hands on each file's records as they come
 * (files read again where changed), none kept: the same sessions in the same order.
 */
async function refreshedSessions(
  catalog: Catalog,
  scope: SessionScope,
  keep: (info: SessionInfo) => boolean,
  options: { withText?: boolean; processCwd: string; progress: ProgressOptions },
): Promise<{ sessions: SessionInfo[]; ids: string[] }> {
  const found: { info: SessionInfo; at: number }[] = [];
  const { ids, kept } = keeping(scope, keep, options);
  const files = scope.files;
  const order = new Map(files.map((path, at) => [path, at]));
  const onRecords = (path: string, records: readonly CatalogRecord[]) => {
    options.progress.onRecords?.(path, records);
    const info = kept(path, records);
    if (info) found.push({ info, at: order.get(path) ?? files.length });
  };
  await catalog.refresh(listingKinds(options.withText), files, { ...options.progress, listedDirs: scope.dirs, listing: scope.listing, keep: false, onRecords });
  // Ties in the scope's order, as `keptSessions` gives them: records come in the order files are read.
  return { sessions: sortByModified(found.sort((a, b) => a.at - b.at).map((f) => f.info)), ids };
}

/**
 * The sessions of `scope` that `keep` accepts (without their message texts), newest first, ties
 * in the scope's order, and every session's id, through `eachCurrentRecord`; else undefined.
 */
async function keptSessions(
  catalog: Catalog,
  scope: SessionScope,
  keep: (info: SessionInfo) => boolean,
  options: { withText?: boolean; processCwd: string },
): Promise<{ sessions: SessionInfo[]; ids: string[] } | undefined> {
  const sessions: SessionInfo[] = [];
  const { ids, kept } = keeping(scope, keep, options);
  const current = await eachCurrentRecord(catalog, listingKinds(options.withText), scope, (path, records) => {
    const info = kept(path, records);
    if (info) sessions.push(info);
  });
  return current ? { sessions: sortByModified(sessions), ids } : undefined;
}
