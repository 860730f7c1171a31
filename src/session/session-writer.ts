/**
 * How a session reaches the disk. Nothing is written until the session holds a user or
 * assistant message; then the whole buffer goes out in one exclusive create. After that
 * every entry is one appended line under the file lock, and a migrated file is first
 * backed up and rewritten atomically. Any throw leaves the writer's state as it was.
 * The writes are step functions (`io-steps.ts`): the async manager runs them with `runSteps`,
 * the synchronous compat one with `runStepsSync`.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { dirName } from "../core/storage/paths.ts";
import { isFsError } from "../io/file-system.ts";
import { append, mkdir, read, stat, type Steps, writeAtomic } from "../io/io-steps.ts";
import { lockedSteps } from "../io/lock.ts";
import { toJsonl } from "./entry-builders.ts";
import { writeBackupSteps } from "./backup.ts";
import { SessionWriteConflictError } from "./errors.ts";

/** New session files are private to their owner. */
export const SESSION_FILE_MODE = 0o600;

const NEWLINE = 0x0a;
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


/** Persists one session file. Calls must not overlap (the manager runs them one at a time). */
export class SessionWriter {
  readonly path: string;
  #state: WriterState;

  constructor(path: string, state: WriterState) {
    this.path = path;
    this.#state = state;
  }

  /**
   * Brings the file up to date after `entry` (already the last of `session.entries`) was
   * added in memory. Nothing happens before a conversation exists.
   */
  *persist(session: SessionSnapshot, entry: SessionEntry): Steps<void> {
    const state = this.#state;
    if (state.kind === "pending") {
      if (session.hasConversation) yield* this.writeAll(session);
    } else if (state.kind === "migrate") {
      yield* this.#rewriteMigrated(session, state);
    } else {
      yield* this.#appendLine(entry, state.end);
    }
  }

  /**
   * Writes header and entries as a new file: an exclusive create, or an atomic write over an
   * empty file (one that was opened empty). A non-empty file already there is never touched.
   */
  *writeAll(session: SessionSnapshot): Steps<void> {
    const bytes = encoder.encode(toJsonl([session.header, ...session.entries]));
    yield* mkdir(dirName(this.path), { recursive: true });
    const path = this.path;
    yield* lockedSteps(path, function* () {
      try {
        yield* append(path, bytes, { exclusive: true, mode: SESSION_FILE_MODE });
      } catch (error) {
        if (!isFsError(error, "AlreadyExists")) throw error;
        const existing = yield* stat(path);
        if (existing?.isFile !== true || existing.size > 0) {
          throw new SessionWriteConflictError(path, "a file is already there");
        }
        yield* writeAtomic(path, bytes, { mode: existing.mode || SESSION_FILE_MODE });
      }
    });
    this.#state = { kind: "written", end: { size: bytes.length, newline: true } };
  }

  /**
   * One line in one `append` call; a torn last line gets its newline first. The last byte is
   * only read when the file's size is not the size this writer last saw (someone else wrote).
   */
  *#appendLine(entry: SessionEntry, known: FileEnd | undefined): Steps<void> {
    const line = JSON.stringify(entry) + "\n";
    const path = this.path;
    const size = yield* lockedSteps(path, function* () {
      const now = yield* stat(path);
      if (now === null) throw new SessionWriteConflictError(path, "the file was removed after it was written");
      const clean = now.size === 0 || (known?.size === now.size ? known.newline : (yield* read(path, now.size - 1, now.size))[0] === NEWLINE);
      const bytes = encoder.encode(clean ? line : "\n" + line);
      yield* append(path, bytes);
      return now.size + bytes.length;
    });
    this.#state = { kind: "written", end: { size, newline: true } };
  }

  /**
   * Keeps the original as `<file>.v<N>.bak` (or the next free name), then replaces the file
   * atomically with the migrated session. Refuses if the file changed since it was read. Lines
   * the reader could not use (malformed JSON, a second header) live on in the backup only.
   */
  *#rewriteMigrated(session: SessionSnapshot, state: { fromVersion: number; byteLength: number }): Steps<void> {
    const path = this.path;
    const size = yield* lockedSteps(path, function* () {
      const now = yield* stat(path);
      if (now === null || now.size !== state.byteLength) {
        throw new SessionWriteConflictError(path, "it changed on disk since it was opened; not rewriting it");
      }
      const original = yield* read(path);
      if (original.length > now.size) throw new SessionWriteConflictError(path, "it grew while being backed up");
      yield* writeBackupSteps(path, state.fromVersion, original, SESSION_FILE_MODE);
      const bytes = encoder.encode(toJsonl([session.header, ...session.entries]));
      yield* writeAtomic(path, bytes, { mode: now.mode || SESSION_FILE_MODE });
      return bytes.length;
    });
    this.#state = { kind: "written", end: { size, newline: true } };
  }
}
