/**
 * How a session reaches the disk. Nothing is written until the session holds a user or
 * assistant message; then the whole buffer goes out in one exclusive create. After that
 * every entry is one appended line under the file lock, and a migrated file is first
 * backed up and rewritten atomically. Any throw leaves the writer's state as it was.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { dirName } from "../core/storage/paths.ts";
import { type FileSystem, isFsError } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { toJsonl } from "./entry-builders.ts";
import { writeBackup } from "./backup.ts";
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
  #fs: FileSystem;
  #state: WriterState;

  constructor(fs: FileSystem, path: string, state: WriterState) {
    this.#fs = fs;
    this.path = path;
    this.#state = state;
  }

  /**
   * Brings the file up to date after `entry` (already the last of `session.entries`) was
   * added in memory. Nothing happens before a conversation exists.
   */
  async persist(session: SessionSnapshot, entry: SessionEntry): Promise<void> {
    const state = this.#state;
    if (state.kind === "pending") {
      if (session.hasConversation) await this.writeAll(session);
    } else if (state.kind === "migrate") {
      await this.#rewriteMigrated(session, state);
    } else {
      await this.#appendLine(entry, state.end);
    }
  }

  /**
   * Writes header and entries as a new file, whole or not at all (a kill or a full disk leaves
   * nothing): an exclusive create, or an atomic write over an empty file (one that was opened
   * empty). A non-empty file already there is never touched.
   */
  async writeAll(session: SessionSnapshot): Promise<void> {
    const bytes = encoder.encode(toJsonl([session.header, ...session.entries]));
    await this.#fs.mkdir(dirName(this.path), { recursive: true });
    // A new file's name is never used again: stale locks beside it are cleared now or never.
    await withFileLock(this.#fs, this.path, async () => {
      try {
        await this.#fs.writeAtomic(this.path, bytes, { exclusive: true, mode: SESSION_FILE_MODE });
      } catch (error) {
        if (!isFsError(error, "AlreadyExists")) throw error;
        const existing = await this.#fs.stat(this.path);
        if (existing?.isFile !== true || existing.size > 0) {
          throw new SessionWriteConflictError(this.path, "a file is already there");
        }
        await this.#fs.writeAtomic(this.path, bytes, { mode: existing.mode || SESSION_FILE_MODE });
      }
    }, { sweepFolder: true });
    this.#state = { kind: "written", end: { size: bytes.length, newline: true } };
  }

  /**
   * One line in one `append` call; a torn last line gets its newline first. The last byte is
   * only read when the file's size is not the size this writer last saw (someone else wrote).
   */
  async #appendLine(entry: SessionEntry, known: FileEnd | undefined): Promise<void> {
    const line = JSON.stringify(entry) + "\n";
    const size = await withFileLock(this.#fs, this.path, async () => {
      const stat = await this.#fs.stat(this.path);
      if (stat === null) throw new SessionWriteConflictError(this.path, "the file was removed after it was written");
      const clean = stat.size === 0 || (known?.size === stat.size ? known.newline : (await this.#lastByte(stat.size)) === NEWLINE);
      const bytes = encoder.encode(clean ? line : "\n" + line);
      await this.#fs.append(this.path, bytes);
      return stat.size + bytes.length;
    });
    this.#state = { kind: "written", end: { size, newline: true } };
  }

  async #lastByte(size: number): Promise<number | undefined> {
    for await (const chunk of this.#fs.read(this.path, { start: size - 1, end: size })) {
      if (chunk.length > 0) return chunk[0];
    }
    return undefined;
  }

  /**
   * Keeps the original as `<file>.v<N>.bak` (or the next free name), then replaces the file
   * atomically with the migrated session. Refuses if the file changed since it was read. Lines
   * the reader could not use (malformed JSON, a second header) live on in the backup only.
   */
  async #rewriteMigrated(session: SessionSnapshot, state: { fromVersion: number; byteLength: number }): Promise<void> {
    const size = await withFileLock(this.#fs, this.path, async () => {
      const stat = await this.#fs.stat(this.path);
      if (stat === null || stat.size !== state.byteLength) {
        throw new SessionWriteConflictError(this.path, "it changed on disk since it was opened; not rewriting it");
      }
      const backup = await writeBackup(this.#fs, this.path, state.fromVersion, await this.#readAll(stat.size), SESSION_FILE_MODE);
      const bytes = encoder.encode(toJsonl([session.header, ...session.entries]));
      await this.#fs.writeAtomic(this.path, bytes, { mode: stat.mode || SESSION_FILE_MODE }).catch(async (error) => {
        await this.#fs.remove(backup).catch(() => {}); // a failed rewrite leaves nothing of itself
        throw error;
      });
      return bytes.length;
    });
    this.#state = { kind: "written", end: { size, newline: true } };
  }

  async #readAll(size: number): Promise<Uint8Array> {
    const bytes = new Uint8Array(size);
    let at = 0;
    for await (const chunk of this.#fs.read(this.path)) {
      if (at + chunk.length > size) throw new SessionWriteConflictError(this.path, "it grew while being backed up");
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  }
}
