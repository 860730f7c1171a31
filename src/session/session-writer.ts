/**
 * How a session reaches the disk. Nothing is written until the session holds a user or
 * assistant message; then the whole buffer goes out in one exclusive create. After that
 * every entry is one appended line under the file lock, its parent picked under the lock
 * after taking in what others appended (so concurrent writers form one chain), and a migrated
 * file is first backed up and rewritten with `safeRewrite`. Any throw leaves the writer's
 * state as it was. The writes are step functions (`io-steps.ts`): the async manager runs them
 * with `runSteps`, the synchronous compat one with `runStepsSync`; the compat one's later lines
 * of a burst go out by `appendKept`, through the file its lock keeper holds open.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { dirName } from "../core/storage/paths.ts";
import { isFsError } from "../io/file-system.ts";
import {
  append,
  type AppendHandleRef,
  mkdir,
  openAppend,
  read,
  realPath,
  startHeartbeat,
  stat,
  type Steps,
  stopHeartbeat,
  writeAtomic,
} from "../io/io-steps.ts";
import { type HeldLock, releaseLock, takeLock } from "../io/lock.ts";
import { type KeptLock, type LockKeeper, releaseKept } from "../io/lock-keeper.ts";
import { toJsonl } from "./entry-builders.ts";
import { appendedEntries } from "./appended-entries.ts";
import { backupCandidate } from "./backup.ts";
import { SessionWriteConflictError } from "./errors.ts";
import { safeRewriteSteps } from "./safe-rewrite.ts";

/** New session files are private to their owner. */
export const SESSION_FILE_MODE = 0o600;

const NEWLINE = 0x0a;
/** How far back one look for a line's start reads. */
const LOOK_BACK = 64 * 1024;
const encoder = new TextEncoder();

/** The size of a session file and whether it ended with a newline, when last read or written. */
export interface FileEnd {
  size: number;
  newline: boolean;
}

/** Where a session file stands relative to the session in memory. */
export type WriterState =
  /** Not on disk yet (possibly an existing empty file that was opened). */
  | { kind: "pending" }
  /** On disk and in step with memory: new entries are appended. */
  | { kind: "written"; end?: FileEnd }
  /** On disk in an older format (`byteLength` bytes when read): rewrite before the first append. */
  | { kind: "migrate"; fromVersion: number; byteLength: number };

/** What the writer needs to know about the session at each write. */
export interface SessionSnapshot {
  header: SessionHeader;
  entries: readonly SessionEntry[];
  hasConversation: boolean;
}

/**
 * Adds the new entry in memory and returns it with the session after it. `others` are entries
 * other writers appended to the file since this one last wrote (already on disk, in file
 * order): they are added first, so the new entry can hang under them.
 */
export type AddEntry = (others: readonly SessionEntry[]) => SessionSnapshot & { entry: SessionEntry };


/** Persists one session file. Calls must not overlap (the manager runs them one at a time). */
export class SessionWriter {
  readonly path: string;
  #state: WriterState;

  constructor(path: string, state: WriterState) {
    this.path = path;
    this.#state = state;
  }

  /**
   * Adds an entry with `add` and brings the file up to date. On a file already written, `add`
   * runs under the file lock with what others appended meanwhile. Nothing is written before a
   * conversation exists. If this throws, whatever `add` did must be undone by the caller.
   * With `keeper`, an append leaves the lock to it and takes a kept one back (see `lock-keeper.ts`).
   */
  *persist(add: AddEntry, keeper?: LockKeeper): Steps<void> {
    const state = this.#state;
    if (state.kind === "pending") {
      const session = add([]);
      if (session.hasConversation) yield* this.writeAll(session, keeper);
    } else if (state.kind === "migrate") {
      yield* this.#rewriteMigrated(add([]), state, keeper);
    } else {
      yield* this.#appendLine(add, state.end, keeper);
    }
  }

  /**
   * Writes header and entries as a new file, whole or not at all (a kill or a full disk leaves
   * nothing): an exclusive create, or an atomic write over an empty file (one that was opened
   * empty). A non-empty file already there is never touched. With a `keeper` whose shell uses open
   * files (`io`), the lock is kept after the write with the new file open, as after an append.
   */
  *writeAll(session: SessionSnapshot, keeper?: LockKeeper): Steps<void> {
    const bytes = encoder.encode(toJsonl([session.header, ...session.entries]));
    const path = this.path;
    yield* mkdir(dirName(path), { recursive: true });
    // A new file's name is never used again: stale locks beside it are cleared now or never.
    const held = yield* takeLock(path, { sweepFolder: true });
    const beat = yield* startHeartbeat(held.holderPath, held.heartbeatMs);
    let kept: KeptLock | undefined;
    try {
      yield* writeNew(path, bytes);
      this.#state = { kind: "written", end: { size: bytes.length, newline: true } };
      if (keeper?.io) kept = yield* keepable(keeper, path, held);
    } finally {
      yield* stopHeartbeat(beat);
      if (kept === undefined) yield* releaseLock(held);
    }
    if (kept !== undefined) keeper!.keep(path, kept);
  }

  /**
   * A line of a synchronous burst, without steps: when `keeper` holds this file's lock with the
   * file open (an earlier line of the burst took it) and the open file still ends where this
   * writer left it (its `endsAt`: nobody appended since, it was not removed or replaced), `make`
   * builds the entry and its line goes out through the open file, still under the lock. Undefined
   * when that does not hold: nothing was done, and `persist` appends by the path, taking in what
   * others appended first. If the check or the write throws, the lock is given back at once.
   */
  appendKept<T extends SessionEntry>(keeper: LockKeeper, make: () => T): T | undefined {
    const state = this.#state;
    const io = keeper.io;
    if (io === undefined || state.kind !== "written" || state.end === undefined || !state.end.newline) return undefined;
    const kept = keeper.held(this.path);
    if (kept?.handle === undefined) return undefined;
    try {
      if (!io.endsAt(kept.handle, state.end.size)) return undefined;
      const entry = make();
      const size = state.end.size + io.append(kept.handle, JSON.stringify(entry) + "\n");
      this.#state = { kind: "written", end: { size, newline: true } };
      return entry;
    } catch (error) {
      keeper.drop(kept.real);
      throw error;
    }
  }

  /**
   * One line in one `append` call; a torn last line gets its newline first. When the file grew
   * since this writer last saw it (someone else wrote), the entries past the known end are read
   * and handed to `add` first, all under the lock: the new entry's parent is chosen knowing them.
   * With `keeper`, the lock is kept after the line with the file open, for `appendKept`.
   */
  *#appendLine(add: AddEntry, known: FileEnd | undefined, keeper: LockKeeper | undefined): Steps<void> {
    const path = this.path;
    let kept = keeper?.take(path);
    if (kept === undefined) {
      // The lock of the file itself, as rewrites take it, also when this path is a symbolic link.
      let real: string;
      try {
        real = yield* realPath(path);
      } catch (error) {
        if (isFsError(error, "NotFound")) throw new SessionWriteConflictError(path, "the file was removed after it was written");
        throw error;
      }
      kept = keeper?.take(real);
      if (kept === undefined) {
        const held = yield* takeLock(real);
        kept = keeper ? keeper.taken(real, held) : { real, held, since: 0 };
      }
    }
    let size: number;
    try {
      // The file stays open with the kept lock, for the next lines of the burst (`appendKept`).
      if (keeper?.io && kept.handle === undefined) kept.handle = yield* bestEffortOpen(path);
      // Reading what others appended may take a while: the lock shows it is alive meanwhile.
      const beat = yield* startHeartbeat(kept.held.holderPath, kept.held.heartbeatMs);
      try {
        size = yield* appendUnderLock(path, add, known);
      } finally {
        yield* stopHeartbeat(beat);
      }
    } catch (error) {
      yield* releaseKept(kept);
      throw error;
    }
    if (keeper) keeper.keep(path, kept);
    else yield* releaseKept(kept);
    this.#state = { kind: "written", end: { size, newline: true } };
  }

  /**
   * Keeps the original as `<file>.v<N>.bak` (or the next free name, beside the file a link
   * points to), then replaces the file with the migrated session by `safeRewrite`. Refuses if
   * the file changed since it was read. Lines the reader could not use (malformed JSON, a
   * second header) live on in the backup only. Lines pi appends during the rewrite are carried
   * over after ours; the end this writer remembers stops before them, so the next append takes
   * them in as others' entries.
   */
  *#rewriteMigrated(session: SessionSnapshot, state: { fromVersion: number; byteLength: number }, keeper: LockKeeper | undefined): Steps<void> {
    const real = yield* realPath(this.path);
    keeper?.drop(real);
    const bytes = encoder.encode(toJsonl([session.header, ...session.entries]));
    yield* safeRewriteSteps(real, (original) => {
      if (original.length !== state.byteLength) {
        throw new SessionWriteConflictError(this.path, "it changed on disk since it was opened; not rewriting it");
      }
      return { kind: "write", bytes, detail: undefined, backupName: (n) => backupCandidate(real, state.fromVersion, n), backupMode: SESSION_FILE_MODE };
    });
    this.#state = { kind: "written", end: { size: bytes.length, newline: true } };
  }
}

/** The new file at `path`, whole or not at all (see `SessionWriter.writeAll`). */
function* writeNew(path: string, bytes: Uint8Array): Steps<void> {
  try {
    yield* writeAtomic(path, bytes, { exclusive: true, mode: SESSION_FILE_MODE });
  } catch (error) {
    if (!isFsError(error, "AlreadyExists")) throw error;
    const existing = yield* stat(path);
    if (existing?.isFile !== true || existing.size > 0) {
      throw new SessionWriteConflictError(path, "a file is already there");
    }
    yield* writeAtomic(path, bytes, { mode: existing.mode || SESSION_FILE_MODE });
  }
}

/**
 * The lock just used to write the new file at `path`, made ready for `keeper` (by the file's real
 * path, the file open); undefined when the file cannot be looked up or opened (it is released then).
 */
function* keepable(keeper: LockKeeper, path: string, held: HeldLock): Steps<KeptLock | undefined> {
  let real: string;
  try {
    real = yield* realPath(path);
  } catch {
    return undefined;
  }
  const handle = yield* bestEffortOpen(path);
  return handle === undefined ? undefined : { ...keeper.taken(real, held), handle };
}

/** The file opened for appends, or undefined if it cannot be (the append then goes by the path). */
function* bestEffortOpen(path: string): Steps<AppendHandleRef | undefined> {
  try {
    return yield* openAppend(path);
  } catch {
    return undefined;
  }
}

/**
 * The part of an append done under the lock: the entries others appended since `known` (the end
 * this writer last saw) go to `add` first, then the new entry's line goes out in one `append`
 * (a torn last line gets its newline first). Returns the file's new size.
 */
function* appendUnderLock(path: string, add: AddEntry, known: FileEnd | undefined): Steps<number> {
  const now = yield* stat(path);
  if (now === null) throw new SessionWriteConflictError(path, "the file was removed after it was written");
  if (known !== undefined && now.size < known.size) {
    throw new SessionWriteConflictError(path, "it was shortened or replaced since it was read");
  }
  const grown = known !== undefined && now.size > known.size;
  // A last line that was not complete when we read the file (torn, or still being written by
  // another process as we read) is read again from its start: its entry is one of theirs.
  const from = grown && !known.newline ? yield* lineStartBefore(path, known.size) : known?.size ?? 0;
  const tail = grown ? yield* read(path, from, now.size) : undefined;
  const { entry } = add(tail ? appendedEntries(tail) : []);
  const clean = yield* endsClean(path, now.size, known, tail);
  const line = JSON.stringify(entry) + "\n";
  const bytes = encoder.encode(clean ? line : "\n" + line);
  yield* append(path, bytes);
  return now.size + bytes.length;
}

/** Where the line that holds byte `end - 1` starts: just after the newline before it, or 0. */
function* lineStartBefore(path: string, end: number): Steps<number> {
  for (let stop = end; stop > 0;) {
    const start = Math.max(0, stop - LOOK_BACK);
    const at = (yield* read(path, start, stop)).lastIndexOf(NEWLINE);
    if (at >= 0) return start + at + 1;
    stop = start;
  }
  return 0;
}

/** Whether a line can go right after the file's `size` bytes: empty, or a newline at the end. */
function* endsClean(path: string, size: number, known: FileEnd | undefined, tail: Uint8Array | undefined): Steps<boolean> {
  if (size === 0) return true;
  if (tail !== undefined) return tail[tail.length - 1] === NEWLINE;
  if (known?.size === size) return known.newline;
  return (yield* read(path, size - 1, size))[0] === NEWLINE;
}
