/**
 * Where `SessionManager`'s factories get a session: opening a file (reading, never writing),
 * the most recent session of a directory (by header scans), a fork written from a source,
 * or entries handed over in memory.
 * @module
 */
import type { FileEntry, SessionEntry, SessionHeader } from "../core/format/types.ts";
import { migrateSession } from "../core/migrate/migrate-session.ts";
import { readSession, type SessionFile } from "../core/read/read-session.ts";
import { isValidSessionId, sessionFileName } from "../core/storage/layout.ts";
import { dirName, joinPath, resolvePath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { forkedSession, type NewSessionParts } from "./branched-session.ts";
import { InvalidForkSourceError, InvalidSessionIdError, NotASessionError, refuseTooDeep } from "./errors.ts";
import { sessionFilesIn } from "./list-sessions.ts";
import { readHeader } from "./read-header.ts";
import { resolveUserPath, type SessionDeps, sessionDirFor } from "./session-options.ts";
import { SessionWriter } from "./session-writer.ts";

/** What is at a path a session is opened from. */
export type LoadedFile =
  | { kind: "missing" }
  | { kind: "empty" }
  | { kind: "session"; file: SessionFile & { header: SessionHeader } };

/**
 * Reads the session at `path` in full, migrated in memory. A missing or 0-byte file is
 * reported as such; anything else without a valid header throws `NotASessionError`.
 */
export async function loadSessionFile(fs: FileSystem, path: string): Promise<LoadedFile> {
  const stat = await fs.stat(path);
  if (stat === null) return { kind: "missing" };
  if (stat.isFile && stat.size === 0) return { kind: "empty" };
  const file = await readSession(fs.read(path));
  refuseTooDeep(path, file.issues);
  if (file.notSession || file.header === null) throw new NotASessionError(path, file.issues);
  return { kind: "session", file: file as SessionFile & { header: SessionHeader } };
}

/**
 * The most recently modified (file mtime) `.jsonl` session in `dir`, as pi's `--continue`
 * picks it. With `cwd`, only sessions whose header cwd resolves to it count.
 */
export async function findMostRecentSession(
  fs: FileSystem,
  dir: string,
  options: { cwd?: string; processCwd: string },
): Promise<string | null> {
  const files = await sessionFilesIn(fs, dir);
  const stamped: { path: string; mtimeMs: number }[] = [];
  for (const path of files) {
    const stat = await fs.stat(path).catch(() => null);
    if (stat?.isFile) stamped.push({ path, mtimeMs: stat.mtimeMs });
  }
  // Newest first; `files` comes sorted by name descending, which breaks ties.
  stamped.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const wanted = options.cwd === undefined ? undefined : resolvePath(options.processCwd, options.cwd);
  for (const { path } of stamped) {
    const header = await readHeader(fs, path);
    if (header === null) continue;
    if (wanted === undefined) return path;
    const cwd = header.cwd;
    if (typeof cwd === "string" && cwd !== "" && resolvePath(options.processCwd, cwd) === wanted) return path;
  }
  return null;
}

/** A file to open, what is in it, and the cwd and dir the manager gets. */
export interface OpenedFile {
  file: string;
  loaded: LoadedFile;
  cwd: string;
  dir: string;
}

/**
 * pi's `open`: the path made absolute, the cwd from `cwdOverride`, else the header, else the
 * process; the dir given, else the file's own.
 */
export async function openSessionFile(deps: SessionDeps, path: string, sessionDir?: string, cwdOverride?: string): Promise<OpenedFile> {
  const file = resolveUserPath(deps, path);
  const loaded = await loadSessionFile(deps.fs, file);
  const headerCwd = loaded.kind === "session" && typeof loaded.file.header.cwd === "string" ? loaded.file.header.cwd : undefined;
  const cwd = resolveUserPath(deps, cwdOverride ?? headerCwd ?? deps.storage.processCwd);
  return { file, loaded, cwd, dir: sessionDir ? sessionDirFor(deps, cwd, sessionDir).dir : dirName(file) };
}

/** pi's `continueRecent` lookup: the cwd and dir, and the most recent session there (loaded), if any. */
export async function openMostRecent(
  deps: SessionDeps,
  cwd: string,
  sessionDir?: string,
): Promise<{ cwd: string; dir: string; recent: { file: string; loaded: LoadedFile } | null }> {
  const resolvedCwd = resolveUserPath(deps, cwd);
  const { dir, filterCwd } = sessionDirFor(deps, resolvedCwd, sessionDir);
  const processCwd = deps.storage.processCwd;
  const file = await findMostRecentSession(deps.fs, dir, { cwd: filterCwd ? resolvedCwd : undefined, processCwd });
  return { cwd: resolvedCwd, dir, recent: file === null ? null : { file, loaded: await loadSessionFile(deps.fs, file) } };
}

/**
 * pi's `forkFrom`, minus its bug: the source is read and migrated, then every entry is written
 * under a new header into `sessionDir` (default: the target cwd's folder) in one exclusive create.
 */
export async function writeFork(
  deps: SessionDeps,
  sourcePath: string,
  targetCwd: string,
  options: { sessionDir?: string; id?: string },
): Promise<NewSessionParts & { cwd: string; dir: string; writer: SessionWriter }> {
  if (options.id !== undefined && !isValidSessionId(options.id)) throw new InvalidSessionIdError(options.id);
  const source = resolveUserPath(deps, sourcePath);
  const cwd = resolveUserPath(deps, targetCwd);
  const loaded = await loadSessionFile(deps.fs, source).catch((error) => {
    throw error instanceof NotASessionError ? new InvalidForkSourceError(source, "it is not a pi session") : error;
  });
  if (loaded.kind !== "session") {
    throw new InvalidForkSourceError(source, loaded.kind === "empty" ? "the file is empty" : "there is no such file");
  }
  const timestamp = deps.clock().toISOString();
  const sessionId = options.id ?? deps.newSessionId();
  const { header, entries } = forkedSession(loaded.file.entries, { sessionId, timestamp, cwd, sourcePath: source });
  const dir = sessionDirFor(deps, cwd, options.sessionDir).dir;
  const writer = new SessionWriter(deps.fs, joinPath(dir, sessionFileName(timestamp, sessionId)), { kind: "pending" });
  await writer.writeAll({ header, entries, hasConversation: true });
  return { header, entries, cwd, dir, writer };
}

/**
 * Entries handed to `inMemory`, as pi takes them: with a header they are a file's lines
 * (migrated like a file); without one, entries for a fresh header.
 */
export function preloadedSession(objects: readonly FileEntry[]): { header?: SessionHeader; entries: SessionEntry[] } {
  const header = objects.find((object) => object.type === "session") as SessionHeader | undefined;
  const entries = objects.filter((object) => object.type !== "session") as SessionEntry[];
  if (!header) return { entries };
  const migrated = migrateSession([header, ...entries] as never, header.id).objects as unknown as FileEntry[];
  return { header: migrated[0] as SessionHeader, entries: migrated.slice(1) as SessionEntry[] };
}
