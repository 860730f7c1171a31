/**
 * Listing sessions through the catalog: the same `SessionInfo` values and order as
 * `listSessions` / `listAllSessions`, with unchanged files never read again.
 * @module
 */
import type { SessionInfo } from "../core/info/session-info.ts";
import { digestInfo, listingDigest } from "../core/digest/listing-digest.ts";
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { allSessionFiles, sessionFilesIn, sortByModified } from "../session/list-sessions.ts";
import type { Catalog, CatalogView, RefreshOptions } from "./catalog.ts";
import { openCatalog, type OpenCatalogOptions } from "./open-catalog.ts";
import { recordState } from "./store.ts";

/** The session files of a scope and the directories listed (in full) to find them. */
export interface SessionFiles {
  files: string[];
  dirs: string[];
}

/** Every session file of every project (`<agentDir>/sessions/*`), or of a flat custom dir. */
export async function allSessionFilesIn(fs: FileSystem, where: { agentDir: string; sessionDir?: string }): Promise<SessionFiles> {
  if (where.sessionDir !== undefined) return { files: await sessionFilesIn(fs, where.sessionDir), dirs: [where.sessionDir] };
  return { files: await allSessionFiles(fs, where.agentDir), dirs: [joinPath(where.agentDir, "sessions")] };
}

/** Options of a listing through the catalog. */
export interface CatalogListOptions extends RefreshOptions {
  /** Keep only sessions whose header cwd resolves to this directory (custom session dirs). */
  cwdFilter?: string;
  /** Base for resolving relative cwds; defaults to "/". */
  processCwd?: string;
}

/** The `SessionInfo` of each session among `files`, newest first. */
export async function catalogSessions(catalog: Catalog, scope: SessionFiles, options: CatalogListOptions = {}): Promise<SessionInfo[]> {
  const view = await catalog.refresh([listingDigest], scope.files, { listedDirs: scope.dirs, ...options });
  return viewSessions(view, options);
}

/** The sessions a refresh that included `listingDigest` found, newest first (cwd-filtered if asked). */
export function viewSessions(view: CatalogView, options: Pick<CatalogListOptions, "cwdFilter" | "processCwd"> = {}): SessionInfo[] {
  const base = options.processCwd ?? "/";
  const wanted = options.cwdFilter === undefined ? undefined : resolvePath(base, options.cwdFilter);
  const infos: SessionInfo[] = [];
  for (const [path, record] of view.records(listingDigest)) {
    const info = digestInfo(path, recordState(record), record.mtimeMs);
    if (info === null) continue;
    if (wanted !== undefined && (info.cwd === "" || resolvePath(base, info.cwd) !== wanted)) continue;
    infos.push(info);
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
    return await catalogSessions(catalog, await allSessionFilesIn(fs, where), options);
  } finally {
    catalog.close();
  }
}
