/**
 * Where `SessionManager`'s factories get a session: opening a file (reading, never writing),
 * the most recent session of a directory (by header scans), a fork written from a source,
 * or entries handed over in memory. Each is a step function (`io-steps.ts`) that both the
 * async `SessionManager` and the synchronous compat one run; the async wrappers are kept for
 * other callers.
 * @module
 */
import type { FileEntry, SessionEntry, SessionHeader } from "../core/format/types.ts";
import { migrateSession } from "../core/migrate/migrate-session.ts";
import { type SessionFile, SessionReader } from "../core/read/read-session.ts";
import { isValidSessionId, sessionFileName } from "../core/storage/layout.ts";
import { dirName, joinPath, resolvePath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { list, read, runSteps, stat, type Steps } from "../io/io-steps.ts";
import { forkedSession, type NewSessionParts } from "./branched-session.ts";
import { InvalidForkSourceError, InvalidSessionIdError, NotASessionError, refuseTooDeep } from "./errors.ts";
import { readHeaderSteps } from "./read-header.ts";
import { type PathDeps, resolveUserPath, sessionDirFor } from "./session-options.ts";
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
export function loadSessionFile(fs: FileSystem, path: string): Promise<LoadedFile> {
  return runSteps(fs, loadSessionFileSteps(path));
}

const READ_CHUNK = 1024 * 1024;

/** `loadSessionFile` as a step function: the file is read in 1 MiB pieces, never held whole. */
export function* loadSessionFileSteps(path: string): Steps<LoadedFile> {
  const found = yield* stat(path);
  if (found === null) return { kind: "missing" };
  if (found.isFile && found.size === 0) return { kind: "empty" };
  const reader = new SessionReader();
  for (let at = 0; ; at += READ_CHUNK) {
    const chunk = yield* read(path, at, at + READ_CHUNK);
    if (chunk.length > 0) reader.push(chunk);
    if (chunk.length < READ_CHUNK) break;
  }
  const file = reader.end();
  refuseTooDeep(path, file.issues);
  if (file.notSession || file.header === null) throw new NotASessionError(path, file.issues);
  return { kind: "session", file: file as SessionFile & { header: SessionHeader } };
}

/** The `.jsonl` files directly in `dir`, newest name first (none when it cannot be listed). */
export function* sessionFilesSteps(dir: string): Steps<string[]> {
  try {
    const entries = yield* list(dir);
    return entries.filter((e) => e.isFile && e.name.endsWith(".jsonl")).map((e) => joinPath(dir, e.name)).sort().reverse();
  } catch {
    return [];
  }
}

/**
 * The most recently modified (file mtime) `.jsonl` session in `dir`, as pi's `--continue`
 * picks it. With `cwd`, only sessions whose header cwd resolves to it count.
 */
export function findMostRecentSession(
  fs: FileSystem,
  dir: string,
  options: { cwd?: string; processCwd: string },
): Promise<string | null> {
  return runSteps(fs, findMostRecentSteps(dir, options));
}

/** `findMostRecentSession` as a step function. */
export function* findMostRecentSteps(dir: string, options: { cwd?: string; processCwd: string }): Steps<string | null> {
  const files = yield* sessionFilesSteps(dir);
  const stamped: { path: string; mtimeMs: number }[] = [];
  for (const path of files) {
    let found = null;
    try {
      found = yield* stat(path);
    } catch {
      // gone or unreadable: not a candidate
    }
    if (found?.isFile) stamped.push({ path, mtimeMs: found.mtimeMs });
  }
  // Newest first; `files` comes sorted by name descending, which breaks ties.
  stamped.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const wanted = options.cwd === undefined ? undefined : resolvePath(options.processCwd, options.cwd);
  for (const { path } of stamped) {
    const header = yield* readHeaderSteps(path);
    if (header === null) continue;
    if (wanted === undefined) return path;
    const cwd = header.cwd;
    if (typeof cwd === "string" && cwd !== "" && resolvePath(options.processCwd, cwd) === wanted) return path;
  }
  return null;
}

/**
 * pi's `findById`: the session file in the cwd's dir (or `sessionDir`; a custom one filtered by
 * header cwd) whose header has exactly this id, found by header scans alone.
 */
export function* findByIdSteps(deps: PathDeps, cwd: string, id: string, sessionDir?: string): Steps<string | undefined> {
  const resolvedCwd = resolveUserPath(deps, cwd);
  const { dir, filterCwd } = sessionDirFor(deps, resolvedCwd, sessionDir);
  for (const path of yield* sessionFilesSteps(dir)) {
    const header = yield* readHeaderSteps(path);
    if (header?.id !== id) continue;
    if (filterCwd && (typeof header.cwd !== "string" || header.cwd === "" || resolveUserPath(deps, header.cwd) !== resolvedCwd)) continue;
    return path;
  }
  return undefined;
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
export function* openSessionFile(deps: PathDeps, path: string, sessionDir?: string, cwdOverride?: string): Steps<OpenedFile> {
  const file = resolveUserPath(deps, path);
  const loaded = yield* loadSessionFileSteps(file);
  return { file, loaded, ...openedPlace(deps, file, loaded.kind === "session" ? loaded.file.header : undefined, sessionDir, cwdOverride) };
}

/** The cwd and dir a manager opened on `file` gets (see `openSessionFile`). */
export function openedPlace(deps: PathDeps, file: string, header: SessionHeader | undefined, sessionDir?: string, cwdOverride?: string): { cwd: string; dir: string } {
  const headerCwd = typeof header?.cwd === "string" ? header.cwd : undefined;
  const cwd = resolveUserPath(deps, cwdOverride ?? headerCwd ?? deps.storage.processCwd);
  return { cwd, dir: sessionDir ? sessionDirFor(deps, cwd, sessionDir).dir : dirName(file) };
}

/** pi's `continueRecent` lookup: the cwd and dir, and the most recent session there (loaded), if any. */
export function* openMostRecent(
  deps: PathDeps,
  cwd: string,
  sessionDir?: string,
): Steps<{ cwd: string; dir: string; recent: { file: string; loaded: LoadedFile } | null }> {
  const { cwd: resolvedCwd, dir, file } = yield* mostRecentFile(deps, cwd, sessionDir);
  return { cwd: resolvedCwd, dir, recent: file === null ? null : { file, loaded: yield* loadSessionFileSteps(file) } };
}

/** `openMostRecent` without the read: the cwd and dir, and the most recent session's file, if any. */
export function* mostRecentFile(deps: PathDeps, cwd: string, sessionDir?: string): Steps<{ cwd: string; dir: string; file: string | null }> {
  const resolvedCwd = resolveUserPath(deps, cwd);
  const { dir, filterCwd } = sessionDirFor(deps, resolvedCwd, sessionDir);
  const processCwd = deps.storage.processCwd;
  return { cwd: resolvedCwd, dir, file: yield* findMostRecentSteps(dir, { cwd: filterCwd ? resolvedCwd : undefined, processCwd }) };
}

/**
 * pi's `forkFrom`, minus its bug: the source is read and migrated, then every entry is written
 * under a new header into `sessionDir` (default: the target cwd's folder) in one exclusive create.
 */
export function* writeFork(
  deps: PathDeps,
  sourcePath: string,
  targetCwd: string,
  options: { sessionDir?: string; id?: string },
): Steps<NewSessionParts & { cwd: string; dir: string; writer: SessionWriter }> {
  if (options.id !== undefined && !isValidSessionId(options.id)) throw new InvalidSessionIdError(options.id);
  const source = resolveUserPath(deps, sourcePath);
  const cwd = resolveUserPath(deps, targetCwd);
  let loaded: LoadedFile;
  try {
    loaded = yield* loadSessionFileSteps(source);
  } catch (error) {
    throw error instanceof NotASessionError ? new InvalidForkSourceError(source, "it is not a pi session") : error;
  }
  if (loaded.kind !== "session") {
    throw new InvalidForkSourceError(source, loaded.kind === "empty" ? "the file is empty" : "there is no such file");
  }
  const timestamp = deps.clock().toISOString();
  const sessionId = options.id ?? deps.newSessionId();
  const { header, entries } = forkedSession(loaded.file.entries, { sessionId, timestamp, cwd, sourcePath: source });
  const dir = sessionDirFor(deps, cwd, options.sessionDir).dir;
  const writer = new SessionWriter(joinPath(dir, sessionFileName(timestamp, sessionId)), { kind: "pending" });
  yield* writer.writeAll({ header, entries, hasConversation: true });
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
