/**
 * The synchronous door to the disk, for code that must not wait (pi's synchronous
 * `SessionManager` API, `pi-session/compat`): the few operations the session layer needs.
 * Errors are `FsError`s, as with `FileSystem`.
 * @module
 */

import type { AppendOptions, AtomicWriteOptions, DirEntry, FileStat, FileSystem } from "./file-system.ts";
import { chunksOf, SourceFailure } from "./_write-data.ts";

/** `FileSystem`'s operations, blocking; `read` returns the bytes at once. */
export interface SyncFileSystem {
  /**
   * Bytes `[start, end)` of a file (all of it without a range); shorter at the end of the file.
   * `into`: a buffer they may be read into when they fit, the answer then being a view of it (valid
   * until the buffer is used again), so that a long read in pieces does not leave a fresh buffer
   * per piece for the collector (node's does; a disk may ignore it).
   */
  read(path: string, start?: number, end?: number, into?: Uint8Array): Uint8Array;
  /** Facts about a path, or `null` when nothing is there. Follows symbolic links. */
  stat(path: string): FileStat | null;
  list(dir: string): DirEntry[];
  /** Appends bytes in one write call; creates the file (mode 0600 by default) if missing. */
  append(path: string, data: Uint8Array, options?: AppendOptions): void;
  /** Replaces the file's content atomically: temp file beside it, fsync, rename (`exclusive`: a new file only). */
  writeAtomic(path: string, data: Uint8Array, options?: AtomicWriteOptions): void;
  rename(from: string, to: string): void;
  /** Removes a file, or an empty directory. */
  remove(path: string): void;
  mkdir(path: string, options?: { recursive?: boolean }): void;
  /** A second name for a file (a hard link); `AlreadyExists` if `newPath` is taken. */
  link(existing: string, newPath: string): void;
  /** The absolute path with every symbolic link resolved; `NotFound` if nothing is there. */
  realPath(path: string): string;
  /**
   * Opens an existing file for appends (`NotFound` if missing). Optional: without it, a handle
   * is its path and each call goes by the path.
   */
  openAppend?(path: string): AppendHandle;
}

/** A file kept open for appends (see `SyncFileSystem.openAppend`). */
export interface AppendHandle {
  readonly path: string;
  /**
   * Whether the open file is `size` bytes long and `path` still names it (the caller knows it
   * ends with a newline). A removed or replaced file must be noticed at every call; one moved
   * away (whose lines are kept under its new name) may be noticed a little later (node: 20 ms).
   */
  endsAt(size: number): boolean;
  /** Appends `text` as UTF-8 in one write call and returns its byte length; a failed write is taken back (as `append`). */
  append(text: string): number;
  close(): void;
}

const encoder = new TextEncoder();

/**
 * A handle that is only its path: every call goes by the path (for disks without `openAppend`);
 * `endsAt` checks the size only (the caller knows the newline is there).
 */
export function pathAppendHandle(fs: SyncFileSystem, path: string): AppendHandle {
  return {
    path,
    endsAt: (size) => fs.stat(path)?.size === size,
    append(text) {
      const data = encoder.encode(text);
      fs.append(path, data);
      return data.length;
    },
    close() {},
  };
}

/**
 * A `FileSystem` whose calls are answered by `sync` (for async code, such as listing, that must
 * see the same disk as a synchronous caller, a memory one in tests).
 */
export function asyncFileSystem(sync: SyncFileSystem): FileSystem {
  return {
    async *read(path, range = {}) {
      yield sync.read(path, range.start, range.end);
    },
    stat: async (path) => sync.stat(path),
    list: async (dir) => sync.list(dir),
    append: async (path, data, options) => sync.append(path, data, options),
    async writeAtomic(path, data, options) {
      const chunks: Uint8Array[] = [];
      try {
        for await (const chunk of chunksOf(data)) chunks.push(chunk.slice());
      } catch (error) {
        throw error instanceof SourceFailure ? error.error : error;
      }
      const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.length;
      }
      sync.writeAtomic(path, bytes, options);
    },
    rename: async (from, to) => sync.rename(from, to),
    remove: async (path) => sync.remove(path),
    mkdir: async (path, options) => sync.mkdir(path, options),
    link: async (existing, newPath) => sync.link(existing, newPath),
    realPath: async (path) => sync.realPath(path),
  };
}
