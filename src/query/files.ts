/**
 * `files`: the sessions and entries that read, edited, wrote, listed or searched a path (or
 * anything under it, for a directory) or the paths a glob matches, from tool calls, bash
 * commands and the file lists of compactions and branch summaries; relative paths resolved
 * against each session's cwd.
 * @module
 */
import { filesDigest } from "../core/digest/files-digest.ts";
import { listingDigest } from "../core/digest/listing-digest.ts";
import { pathWithin, resolveToolPath } from "../core/files/file-refs.ts";
import { globMatcher, isGlob } from "../core/files/glob.ts";
import { baseName, dirName, expandHome, resolvePath } from "../core/storage/paths.ts";
import { type CatalogRecord, recordState } from "../catalog/store.ts";
import type { FilesState } from "../core/digest/files-digest.ts";
import type { ListingState } from "../core/info/session-info.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { shortSessionIds } from "./known-ids.ts";
import { type SessionScope, sessionScope, withProgress } from "./scope.ts";
import { type Catalog, inDirs } from "../catalog/catalog.ts";
import type { DigestKind } from "../core/digest/digester.ts";
import { walkCollector } from "./walk-garbage.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

export interface FilesOptions {
  /**
   * A file or folder, or a glob (`*`, `?`, `**`, `{a,b}`: see core/files/glob.ts) matched against
   * the paths the sessions used, resolved: `~` expanded, relative to the env cwd.
   */
  path: string;
  /** Every project (default: the env cwd's sessions). */
  all?: boolean;
  /** Also give `shortIds` for the sessions found. */
  shortIds?: boolean;
}

/** One use of the path by an entry. */
export interface FileHit {
  entryId: string | null;
  timestamp: string | null;
  op: string;
  tool: string;
  /** As the session wrote it. */
  path: string;
  /** Absolute, against the session's cwd. */
  resolved: string;
  command?: string;
}

/** A session that touched the path, as `files --json` prints it (an array of these). */
export interface FileSessionJson {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  refs: FileHit[];
}

export interface FilesResult {
  /** What `files --json` prints: the sessions, the most recent use first. */
  value: FileSessionJson[];
  /** The absolute path (or glob) looked for. */
  target: string;
  /** With `shortIds`: session id → printable unique prefix. */
  shortIds?: Map<string, string>;
}

/**
 * Text that the stored state of any session touching `target` contains (as JSON writes it):
 * the target's last name. A path resolved onto the target or under it ends in that name or runs
 * through it, and the name came from the path as written (`~`, `@` and `..` add none) or from the
 * session's cwd, which its state holds too; a `file:` URL (percent-encoded) is let through by the
 * store. Undefined where it cannot be told so: the name is empty or is one JSON would escape, or
 * the home directory lies at or under the target (a `~/…` path could reach it by the home's names).
 */
export function mentionedName(target: string, home: string): string | undefined {
  const name = baseName(target);
  if (name === "" || name === "." || name === ".." || /[\u0000-\u001f"\\\ud800-\udfff]/.test(name)) return undefined;
  if (home !== "" && pathWithin(resolvePath("/", home), target)) return undefined;
  return name;
}

/**
 * The texts the stored state of any session touching `target` contains: its last name
 * (`mentionedName`), and its folder's name where that can be told so too. A path resolved onto
 * the target runs through the folder, and resolving takes segments away (`..`), never makes
 * them: the folder's name came from the path as written or from the session's cwd, unless from
 * the home directory (`~/…`), which the folder then holds (at or under it). Undefined as
 * `mentionedName`: then every session is looked at.
 */
export function mentionedNames(target: string, home: string): string[] | undefined {
  const name = mentionedName(target, home);
  if (name === undefined) return undefined;
  const folder = mentionedName(dirName(target), home);
  return folder === undefined ? [name] : [name, folder];
}

/**
 * The files of `scope` whose stored state of `kind` (the file references) mentions `names`
 * (`CatalogStore.filesMentioning`), when they are at most a quarter of the scope and every
 * record of `kind` is current for it (the catalog's `unchanged`, by the quick check where it
 * can: then the stored states tell every session that can mention it). "many" when they are
 * over half of it (the walk hands every session on); else undefined (the walk hands on only
 * those it finds mention it). The other sections of the files found are refreshed with them.
 */
async function currentMentioning(catalog: Catalog, kind: AnyKind, scope: SessionScope, names: readonly string[]): Promise<string[] | "many" | undefined> {
  const store = catalog.store;
  const listing = scope.listing;
  if (!store?.filesMentioning || !listing || scope.dirs.length === 0) return undefined;
  const files = listing.folders.reduce((n, folder) => n + listing.countIn(folder), 0);
  let mentioned: Set<string> | undefined;
  try {
    mentioned = await store.filesMentioning(kind, names, files / 2);
  } catch {
    return undefined;
  }
  if (!mentioned) return "many";
  const found = [...mentioned].filter(inDirs(scope.dirs));
  if (found.length > files / 4 || !await catalog.unchanged(kind, undefined, { listing, listedDirs: scope.dirs })) return undefined;
  // In the listing's order (its folders in turn, newest name first), as a refresh of the scope hands them on.
  const place = new Map(listing.folders.map((folder, i) => [folder, i]));
  const at = (path: string) => place.get(dirName(path)) ?? place.size;
  return found.sort((a, b) => at(a) - at(b) || (a < b ? 1 : a > b ? -1 : 0));
}

/** The sessions that touched `path` (or a path its glob matches). */
export async function fileSessions(env: QueryEnv, options: FilesOptions): Promise<FilesResult> {
  if (options.path.trim() === "") throw new QueryError("bad-usage", "files needs a path, not an empty argument", "Pass a file or folder, e.g. pi-session files src/parser.ts");
  const home = env.storage.home;
  const target = resolvePath(env.cwd, expandHome(options.path, home));
  const touches = isGlob(options.path) ? globMatcher(target) : (resolved: string) => pathWithin(resolved, target);
  const base = env.storage.processCwd;
  return env.withCatalog(async (catalog) => {
    const scope = await sessionScope(env, Boolean(options.all), catalog);
    const cwdFilter = scope.cwdFilter === undefined ? undefined : resolvePath(base, scope.cwdFilter);
    const found: FileSessionJson[] = [];
    // Each session is looked at as its records come and only the matches are kept: nothing per session is held.
    const collect = walkCollector();
    const onRecords = (path: string, [record, listing]: readonly CatalogRecord[]) => {
      collect();
      const { header, rejected, data } = recordState(record as CatalogRecord<FilesState>);
      if (rejected || header === null) return;
      const cwd = typeof header.cwd === "string" ? header.cwd : "";
      if (cwdFilter !== undefined && (cwd === "" || resolvePath(base, cwd) !== cwdFilter)) return;
      const refs: FileHit[] = [];
      for (const [entryId, timestamp, op, tool, paths, command] of data.refs) {
        for (const raw of paths) {
          const resolved = resolveToolPath(raw, cwd, home);
          if (!touches(resolved)) continue;
          refs.push({ entryId, timestamp, op, tool, path: raw, resolved, ...(command === undefined ? {} : { command }) });
        }
      }
      if (refs.length === 0) return;
      const name = listing ? recordState(listing as CatalogRecord<ListingState>).data.name ?? null : null;
      found.push({ path, id: typeof header.id === "string" ? header.id : String(header.id), cwd, name, refs });
    };
    const mentioning = isGlob(options.path) ? undefined : mentionedNames(target, home);
    const kinds = [filesDigest, listingDigest];
    const [refresh, done] = withProgress(env, "Reading sessions", { listedDirs: scope.dirs, listing: scope.listing, onRecords, keep: false, mentioning });
    try {
      // File references current (by the quick check where it can): only the few sessions that mention the name are stat'ed and loaded.
      const mentioned = mentioning === undefined ? undefined : await currentMentioning(catalog, filesDigest, scope, mentioning);
      if (Array.isArray(mentioned)) await catalog.refresh(kinds, mentioned, { onRecords: refresh.onRecords, keep: false });
      // Most sessions mention the name: the walk hands every one on, with no set of them made.
      else await catalog.refresh(kinds, scope.files, mentioned === "many" ? { ...refresh, mentioning: undefined } : refresh);
    } finally {
      done();
    }
    const latest = (s: FileSessionJson) => s.refs.reduce((max, r) => (r.timestamp !== null && r.timestamp > max ? r.timestamp : max), "");
    found.sort((a, b) => (latest(a) < latest(b) ? 1 : latest(a) > latest(b) ? -1 : 0));
    // Printed ids are unique among every project's sessions, so each resolves back to its own.
    if (!options.shortIds) return { value: found, target };
    return { value: found, target, shortIds: await shortSessionIds(env, catalog, found.map((s) => s.id)) };
  });
}
