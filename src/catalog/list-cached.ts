/**
 * Listing sessions through the catalog: the same `SessionInfo` values and order as
 * `listSessions` / `listAllSessions`, with unchanged files never read again.
 * @module
 */
import type { ListingState, SessionInfo } from "../core/info/session-info.ts";
import { digestInfo, listingDigest, type MessageTexts, messageTextsDigest } from "../core/digest/listing-digest.ts";
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { allSessionFiles, sessionFilesIn, sortByModified } from "../session/list-sessions.ts";
import type { Catalog, CatalogView, RefreshOptions } from "./catalog.ts";
import type { FolderListing } from "./folder-check.ts";
import { openCatalog, type OpenCatalogOptions } from "./open-catalog.ts";
import { type CatalogRecord, recordState } from "./store.ts";

/** The session files of a scope and the directories listed (in full) to find them. */
export interface SessionFiles {
  files: string[];
  dirs: string[];
  /** How the files were listed through the catalog, for its quick check (`Catalog.listFiles`). */
  listing?: FolderListing;
}

/** Every session file of every project (`<agentDir>/sessions/*`), or of a flat custom dir. */
export async function allSessionFilesIn(fs: FileSystem, where: { agentDir: string; sessionDir?: string }): Promise<SessionFiles> {
  if (where.sessionDir !== undefined) return { files: await sessionFilesIn(fs, where.sessionDir), dirs: [where.sessionDir] };
  return { files: await allSessionFiles(fs, where.agentDir), dirs: [joinPath(where.agentDir, "sessions")] };
}

/** `allSessionFilesIn` through the catalog: unchanged folders are not listed again. */
export async function catalogSessionFiles(catalog: Catalog, where: { agentDir: string; sessionDir?: string }): Promise<SessionFiles> {
  const dir = where.sessionDir ?? joinPath(where.agentDir, "sessions");
  const listing = await catalog.listFiles(dir, where.sessionDir === undefined);
  return { files: listing.files, dirs: [dir], listing };
}

/** Options of a listing through the catalog. */
export interface CatalogListOptions extends RefreshOptions {
  /** Keep only sessions whose header cwd resolves to this directory (custom session dirs). */
  cwdFilter?: string;
  /** Base for resolving relative cwds; defaults to "/". */
  processCwd?: string;
  /** Fill `allMessagesText` (from the catalog's message-texts section) for searching. */
  withText?: boolean;
}

/** The sections a listing refreshes. */
export function listingKinds(withText = false): (typeof listingDigest | typeof messageTextsDigest)[] {
  return withText ? [listingDigest, messageTextsDigest] : [listingDigest];
}

/**
 * Turns one file's records from a refresh of `listingKinds(withText)` into its `SessionInfo`;
 * null for a file that is not a session, or (with `cwdFilter`) not of that directory.
 */
export function recordsInfo(
  path: string,
  records: readonly CatalogRecord[],
  options: Pick<CatalogListOptions, "cwdFilter" | "processCwd"> = {},
): SessionInfo | null {
  const [listing, texts] = records as [CatalogRecord<ListingState>, CatalogRecord<MessageTexts>?];
  const info = digestInfo(path, recordState(listing), listing.mtimeMs, texts && recordState(texts).data);
  return info !== null && inCwd(options)(info.cwd) ? info : null;
}

/**
 * Whether a header's cwd belongs to the listing: always without `cwdFilter`, else only when
 * it resolves to that directory (a custom session dir holds every project's sessions).
 */
export function inCwd(options: Pick<CatalogListOptions, "cwdFilter" | "processCwd">): (cwd: unknown) => boolean {
  if (options.cwdFilter === undefined) return () => true;
  const base = options.processCwd ?? "/";
  const wanted = resolvePath(base, options.cwdFilter);
  return (cwd) => typeof cwd === "string" && cwd !== "" && resolvePath(base, cwd) === wanted;
}

/** The `SessionInfo` of each session among `files`, newest first. */
export async function catalogSessions(catalog: Catalog, scope: SessionFiles, options: CatalogListOptions = {}): Promise<SessionInfo[]> {
  const kinds = listingKinds(options.withText);
  const view = await catalog.refresh(kinds, scope.files, { listedDirs: scope.dirs, listing: scope.listing, ...options });
  return viewSessions(view, options, scope.files);
}

/**
 * The sessions a refresh of `listingKinds(withText)` found, newest first (cwd-filtered if asked);
 * ties in the order of `files` when given (the listing's: as `list` reads rows), else the view's.
 */
export function viewSessions(
  view: CatalogView,
  options: Pick<CatalogListOptions, "cwdFilter" | "processCwd" | "withText"> = {},
  files?: readonly string[],
): SessionInfo[] {
  const texts = options.withText ? view.records(messageTextsDigest) : undefined;
  const records = view.records(listingDigest);
  const infos: SessionInfo[] = [];
  for (const path of files ?? records.keys()) {
    const record = records.get(path);
    if (record === undefined) continue;
    const textRecord = texts?.get(path);
    const info = recordsInfo(path, textRecord ? [record, textRecord] : [record], options);
    if (info !== null) infos.push(info);
  }
  return sortByModified(infos);
}

/**
 * pi's `listAll`, through a catalog kept in `cacheDir`.
 *
 * @example
 * ```ts
 * const sessions = await listAllCached(nodeFileSystem, { agentDir }, { cacheDir: "/tmp/cache", realDisk: true });
 * ```
 */
export async function listAllCached(
  fs: FileSystem,
  where: { agentDir: string; sessionDir?: string },
  options: Omit<OpenCatalogOptions, "fs"> & CatalogListOptions,
): Promise<SessionInfo[]> {
  const catalog = await openCatalog({ fs, ...options });
  try {
    catalog.preload([listingDigest]);
    return await catalogSessions(catalog, await catalogSessionFiles(catalog, where), options);
  } finally {
    catalog.close();
  }
}
