/**
 * A search over the session files of a scope, through the catalog: the full-text index where the
 * store has one (only its `docs` section is brought up to date), else one read of every file;
 * then the listing details of just the sessions that have hits.
 * @module
 */
import type { HeaderFacts } from "../core/digest/digester.ts";
import { docsDigest } from "../core/digest/docs-digest.ts";
import { listingDigest } from "../core/digest/listing-digest.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import type { DocBounds, DocFacts } from "../core/search/doc-filter.ts";
import type { SearchQuery } from "../core/search/query.ts";
import type { Catalog, RefreshOptions } from "./catalog.ts";
import { inDirs } from "./in-dirs.ts";
import { inCwd, type SessionFiles, viewSessions } from "./list-cached.ts";
import type { SearchResult } from "./search-hit.ts";
import { canIndexSearch, indexSearch } from "./search-index.ts";
import { scanSearch } from "./search-scan.ts";
import { eachStamp } from "./stamps.ts";
import { type DocScope, recordState } from "./store.ts";

/** What to search for, among which sessions, and how many hits to keep. */
export interface SearchSessionsOptions {
  limit: number;
  filter: (doc: DocFacts) => boolean;
  /** What `filter` keeps has these in common (`docBounds` of its options): the index may leave the rest out. */
  bounds?: DocBounds;
  /** Keep only sessions whose header cwd resolves to this directory (custom session dirs). */
  cwdFilter?: string;
  /** Base for resolving relative cwds; defaults to "/". */
  processCwd?: string;
  /** For the refresh of the index (`listedDirs`, progress); `onProgress` also reports the scan. */
  refresh?: RefreshOptions;
  /** Hears of each file the scan skips for a header that cannot be used (see `ScanOptions`). */
  onBadHeader?: (path: string, problem: string) => void;
  /**
   * When the full-text index holds fewer than half the files of the scope (a first search),
   * scan them instead of building it first: the hits come in seconds, not after the minutes
   * that indexing thousands of sessions takes (the caller may build it afterwards: `indexCold`).
   */
  scanWhenCold?: boolean;
}

/** The hits, and the listing details of each session that has one, by path. */
export interface SessionSearch {
  result: SearchResult;
  sessions: Map<string, SessionInfo>;
  /** With `scanWhenCold`: the index was cold, so the files were scanned and it is still to be built. */
  indexCold?: boolean;
}

/**
 * True when the store's full-text section has records for fewer than half of the scope's files.
 * Where the section covers folders of the scope's listing (covered-check.ts), each of their files
 * has a record: when they are half the files, no stamp is loaded to count.
 */
async function indexIsCold(catalog: Catalog, scope: SessionFiles): Promise<boolean> {
  const { listing } = scope;
  const covered = listing && await catalog.store?.loadCoverage?.(docsDigest).catch(() => undefined);
  if (listing && covered) {
    let all = 0;
    let recorded = 0;
    for (const folder of listing.folders) {
      const count = listing.countIn(folder);
      all += count;
      const mtime = listing.mtimes.get(folder);
      if (mtime !== undefined && covered.folders.get(folder) === mtime) recorded += count;
    }
    if (recorded >= all / 2) return false;
  }
  const store = catalog.store;
  if (!store?.loadStamps) return false;
  // Counted row by row: the stamps are not held.
  let stamps = 0;
  try {
    await eachStamp(store, docsDigest, () => stamps++);
  } catch {
    return false;
  }
  return stamps < scope.files.length / 2;
}

/** Which headers count: with `cwdFilter`, the sessions of that directory only (the listing's rule). */
function headerTest(options: SearchSessionsOptions): (header: HeaderFacts) => boolean {
  const belongs = inCwd(options);
  return (header) => belongs(header.cwd);
}

/**
 * Tells `onBadHeader` of the files under `dirs` whose line 1 is a session header that cannot be
 * used, as a refresh that reads them does (and a scan, every time): a search the index answers
 * reads no file, and went silent about them after its first run. They are among the few records
 * without a header id, found by the store's index of ids (none where a store has no such index).
 */
async function noteBadHeaders(catalog: Catalog, dirs: readonly string[], onBadHeader: SearchSessionsOptions["onBadHeader"]): Promise<void> {
  const store = catalog.store;
  if (!onBadHeader || !store?.headerlessFiles || !store.loadPaths) return;
  try {
    const paths = dirs.flatMap((dir) => store.headerlessFiles!(docsDigest, dir));
    if (paths.length === 0) return;
    for (const [path, record] of await store.loadPaths(docsDigest, paths)) {
      const why = recordState(record).badHeader;
      if (typeof why === "string") onBadHeader(path, why);
    }
  } catch {
    // Notes only: a store that cannot give them leaves the search as it is.
  }
}

/**
 * The test of the files whose documents count, once the `docs` section is up to date for the
 * scope, and where the store may look for them (`within`). When it already is and every session
 * counts, that is any file in the scope's directories: the section's records there are exactly
 * the scope's files (`unchanged` says so), and files that are not sessions have no documents.
 * Else the refresh's records tell sessions, and their directories, apart.
 */
async function indexedFiles(catalog: Catalog, scope: SessionFiles, options: SearchSessionsOptions): Promise<{ test: (path: string) => boolean; within: DocScope | undefined }> {
  const refresh = options.refresh ?? {};
  if (options.cwdFilter === undefined && await catalog.unchanged(docsDigest, refresh.listing ? undefined : scope.files, { ...refresh, readChanged: true })) {
    await noteBadHeaders(catalog, scope.dirs, options.onBadHeader);
    if (scope.dirs.length > 0) return { test: inDirs(scope.dirs), within: docScope(scope) };
    const files = new Set(scope.files);
    return { test: (path) => files.has(path), within: docScope(scope) };
  }
  const accepts = headerTest(options);
  const view = await catalog.refresh([docsDigest], scope.files, refresh);
  const files = new Set<string>();
  for (const [path, record] of view.records(docsDigest)) {
    const state = recordState(record);
    if (!state.rejected && state.header !== null && accepts(state.header)) files.add(path);
  }
  // The files themselves: with a cwd filter, a folder of every project's sessions may hold few of them.
  return { test: (path) => files.has(path), within: options.cwdFilter === undefined ? docScope(scope) : { paths: [...files] } };
}

/**
 * Where the store may look for hits: the scope's folders, or its files when it names no folder.
 * Every project's folders are most of the store's documents, unless there are none: searched
 * through every file's uses, uncounted (counting their files read every folder's names, 1.7 MB at
 * 25,000 sessions: 10 ms of a warm search).
 */
function docScope(scope: SessionFiles): DocScope | undefined {
  if (scope.dirs.length === 0) return { paths: scope.files };
  const { listing } = scope;
  if (listing?.nested) return listing.folders.length === 0 ? { paths: [] } : undefined;
  return { dirs: scope.dirs };
}

/**
 * Searches the sessions of `scope`, newest hits first.
 *
 * @example
 * ```ts
 * const { result, sessions } = await searchSessions(catalog, await allSessionFilesIn(fs, { agentDir }), parseSearchQuery("parser"), { limit: 20, filter: docFilter({}) });
 * sessions.get(result.hits[0].path)?.name;
 * ```
 */
export async function searchSessions(catalog: Catalog, scope: SessionFiles, query: SearchQuery, options: SearchSessionsOptions): Promise<SessionSearch> {
  const { limit, filter, refresh } = options;
  let result: SearchResult | null = null;
  let indexCold = false;
  if (canIndexSearch(catalog.store, query)) {
    indexCold = Boolean(options.scanWhenCold) && await indexIsCold(catalog, scope);
    if (!indexCold) {
      const { test, within } = await indexedFiles(catalog, scope, options);
      result = await indexSearch(catalog.fs, catalog.store, test, query, { limit, filter, within, bounds: options.bounds });
    }
  }
  result ??= await scanSearch(catalog.fs, scope.files, query, { limit, filter, accept: headerTest(options), onProgress: refresh?.onProgress, onBadHeader: options.onBadHeader });
  const paths = [...new Set(result.hits.map((hit) => hit.path))];
  const view = await catalog.refresh([listingDigest], paths, { partial: true });
  return { result, sessions: new Map(viewSessions(view).map((s) => [s.path, s])), ...(indexCold ? { indexCold } : {}) };
}
