/**
 * The synchronous door to the disk, for code that must not wait (pi's synchronous
 * `SessionManager` API, `pi-session/compat`): the few operations the session layer needs.
 * Errors are `FsError`s, as with `FileSystem`.
 * @module
 */

import type { AppendOptions, DirEntry, FileStat, WriteOptions } from "./file-system.ts";

/** `FileSystem`'s operations, blocking; `read` returns the bytes at once. */
export interface SyncFileSystem {
  /** Bytes `[start, end)` of a file (all of it without a range); shorter at the end of the file. */
  read(path: string, start?: number, end?: number): Uint8Array;
  /** Facts about a path, or `null` when nothing is there. Follows symbolic links. */
  stat(path: string): FileStat | null;
  list(dir: string): DirEntry[];
  /** Appends bytes in one write call; creates the file (mode 0600 by default) if missing. */
  append(path: string, data: Uint8Array, options?: AppendOptions): void;
  /** Replaces the file's content atomically: temp file beside it, fsync, rename. */
  writeAtomic(path: string, data: Uint8Array, options?: WriteOptions): void;
  rename(from: string, to: string): void;
  /** Removes a file, or an empty directory. */
  remove(path: string): void;
  mkdir(path: string, options?: { recursive?: boolean }): void;
}
