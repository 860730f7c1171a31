/**
 * Listing sessions the way pi's `SessionManager.list` / `listAll` do (same fields, same
 * order), but reading files in parallel and parsing only what a listing shows.
 * @module
 */
import { type SessionInfo, SessionInfoReader } from "../core/info/session-info.ts";
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { runSteps } from "../io/io-steps.ts";
import { sessionFilesSteps } from "./session-files.ts";

export interface ListOptions {
  /** Also collect `allMessagesText` (for search). */
  withText?: boolean;
  /** Keep only sessions whose header cwd resolves to this directory (custom session dirs). */
  cwdFilter?: string;
  /** Base for resolving relative cwds; defaults to "/". */
  processCwd?: string;
  /** Called as files finish loading. */
  onProgress?: (loaded: number, total: number) => void;
  /** Called with each file's info (null: not a session) as it finishes loading, before `onProgress`. */
  onLoaded?: (info: SessionInfo | null, loaded: number, total: number) => void;
  concurrency?: number;
}

/** `SessionInfo` of one file, or null when it is not a session (or cannot be read). */
export async function readSessionInfo(
  fs: FileSystem,
  path: string,
  options: { withText?: boolean; mtimeMs?: number } = {},
): Promise<SessionInfo | null> {
  const reader = new SessionInfoReader(path, options);
  let mtimeMs = options.mtimeMs;
  try {
    for await (const chunk of fs.read(path, { reuseBuffer: true })) {
      reader.push(chunk);
      if (!reader.wanted) break;
    }
    if (mtimeMs === undefined) mtimeMs = (await fs.stat(path))?.mtimeMs ?? 0;
  } catch {
    return null;
  }
  return reader.end(mtimeMs);
}

/** Runs `work` over `items` with at most `limit` in flight; results keep input order. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Newest activity first, as pi sorts. */
export function sortByModified(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The `.jsonl` files directly in `dir` (none when it does not exist). */
export function sessionFilesIn(fs: FileSystem, dir: string): Promise<string[]> {
  return runSteps(fs, sessionFilesSteps(dir));
}

async function infosOf(fs: FileSystem, files: string[], options: ListOptions): Promise<SessionInfo[]> {
  let loaded = 0;
  const infos = await mapConcurrent(files, options.concurrency ?? 16, async (path) => {
    const info = await readSessionInfo(fs, path, { withText: options.withText });
    loaded++;
    options.onLoaded?.(info, loaded, files.length);
    options.onProgress?.(loaded, files.length);
    return info;
  });
  const base = options.processCwd ?? "/";
  const wanted = options.cwdFilter === undefined ? undefined : resolvePath(base, options.cwdFilter);
  return sortByModified(infos.filter((info): info is SessionInfo =>
    info !== null && (wanted === undefined || (info.cwd !== "" && resolvePath(base, info.cwd) === wanted))
  ));
}

/**
 * The sessions in one directory (pi's `list`): the per-cwd folder, or a flat custom dir
 * filtered by `cwdFilter`.
 */
export async function listSessions(fs: FileSystem, dir: string, options: ListOptions = {}): Promise<SessionInfo[]> {
  return infosOf(fs, await sessionFilesIn(fs, dir), options);
}

/**
 * Every session of every project (pi's `listAll`): the `.jsonl` files one level below
 * `<agentDir>/sessions`, or those of a flat custom `sessionDir` when given.
 */
export async function listAllSessions(
  fs: FileSystem,
  where: { agentDir: string; sessionDir?: string },
  options: ListOptions = {},
): Promise<SessionInfo[]> {
  if (where.sessionDir !== undefined) return listSessions(fs, where.sessionDir, options);
  return infosOf(fs, await allSessionFiles(fs, where.agentDir), options);
}

/** The session files of all projects under `<agentDir>/sessions`. */
export async function allSessionFiles(fs: FileSystem, agentDir: string): Promise<string[]> {
  const root = joinPath(agentDir, "sessions");
  let folders: string[];
  try {
    folders = (await fs.list(root)).filter((e) => e.isDirectory).map((e) => joinPath(root, e.name));
  } catch {
    return [];
  }
  const files = await mapConcurrent(folders, 64, (folder) => sessionFilesIn(fs, folder));
  return files.flat();
}
