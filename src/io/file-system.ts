/**
 * The one door between pi-session and the disk. Core code takes a `FileSystem`
 * as a parameter; each runtime supplies an adapter (node, deno, bun, memory).
 * @module
 */

import type { WriteData } from "./_write-data.ts";

export type { WriteData } from "./_write-data.ts";

/** What `stat` tells about a path. Times are milliseconds since the epoch. */
export interface FileStat {
  size: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
  /** POSIX permission bits (e.g. 0o600); 0 where the platform has none. */
  mode: number;
}

/**
 * One name in a directory listing. Symbolic links are followed for the kind; one that cannot be
 * followed (dangling, a loop) is neither a file nor a directory.
 */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
}

/** A byte range to read; `end` is exclusive. */
export interface ReadRange {
  start?: number;
  end?: number;
  /**
   * The caller is done with each chunk before it asks for the next one (and with the last
   * one once it asks past the end), so the adapter may hand out the same buffer again, in
   * this read or a later one (less garbage, and memory that is already mapped).
   */
  reuseBuffer?: boolean;
}

export interface WriteOptions {
  /** Permission bits for a file this call creates; defaults to 0o600. */
  mode?: number;
}

/** Options for `writeAtomic`. */
export interface AtomicWriteOptions extends WriteOptions {
  /**
   * Create a new file: fail with `AlreadyExists` if one is there, never replace it. The file
   * appears whole or not at all (the temp file is hard-linked into place; where a file system has
   * no hard links, the name is reserved empty first and the temp renamed over it).
   */
  exclusive?: boolean;
}

export interface AppendOptions extends WriteOptions {
  /** Fail with `AlreadyExists` if the file exists (create it exclusively). */
  exclusive?: boolean;
}

/** Kinds of failure every adapter maps its native errors onto. */
export type FsErrorKind =
  | "NotFound"
  | "AlreadyExists"
  | "PermissionDenied"
  | "IsDirectory"
  | "NotDirectory"
  | "NotEmpty"
  | "Other";

/** The single error type adapters throw, so callers never see runtime-specific errors. */
export class FsError extends Error {
  readonly kind: FsErrorKind;
  readonly path: string;
  /** What the user can do about it, when the adapter or caller knows better than the kind says. */
  readonly hint: string | undefined;
  constructor(kind: FsErrorKind, path: string, message: string, options?: { cause?: unknown; hint?: string }) {
    super(message, options);
    this.name = "FsError";
    this.kind = kind;
    this.path = path;
    this.hint = options?.hint;
  }
}

/** True when `error` is an `FsError` of the given kind. */
export function isFsError(error: unknown, kind?: FsErrorKind): error is FsError {
  return error instanceof FsError && (kind === undefined || error.kind === kind);
}

/**
 * The handful of file operations pi-session needs. Paths are plain strings in the
 * platform's own syntax; adapters do not resolve them against anything but the process cwd.
 */
export interface FileSystem {
  /** The file's bytes (or a range of them) as a stream of chunks. */
  read(path: string, range?: ReadRange): AsyncIterable<Uint8Array>;
  /** Facts about a path, or `null` when nothing is there. Follows symbolic links. */
  stat(path: string): Promise<FileStat | null>;
  /**
   * `stat` answered at once, where the adapter's `stat` is a blocking call anyway (node, bun):
   * a full check stats every session file, and a promise around each of 25,000 stats costs
   * more than some of the calls. Optional; a wrapper that changes `stat` must leave it out (or
   * change it alike), and callers fall back to `stat` without it.
   */
  statNow?(path: string): FileStat | null;
  /**
   * `statNow` of `stem + name` (a folder's path and its separator, and a name in it), without
   * making the path where the adapter can (bun on Linux): a full check stats 25,000 such paths.
   * Optional, as `statNow` is (and only beside it): a wrapper that changes `stat` must leave it out too.
   */
  statNowIn?(stem: string, name: string): FileStat | null;
  /**
   * `statNowIn` of each of `names` in one folder, in their order, the folder resolved once where
   * the adapter can (bun on Linux: `fstatat`): a full check stats every file of each folder.
   * Optional, as `statNowIn` is.
   */
  statNowEach?(stem: string, names: readonly string[]): (FileStat | null)[];
  /** The entries of a directory, in no particular order. */
  list(dir: string): Promise<DirEntry[]>;
  /**
   * Appends bytes in one write call; creates the file (mode 0600 by default) if missing. A write
   * that fails (a full disk) takes back what it wrote: the file keeps its old length, and a file
   * this call created is removed.
   */
  append(path: string, data: Uint8Array, options?: AppendOptions): Promise<void>;
  /**
   * Replaces the file's content atomically: temp file beside it, fsync, rename. `data` may be
   * chunks produced as the file is written; if producing one throws, the file is left as it was
   * and that error is thrown as it is. Whatever fails, no temp file is left behind.
   */
  writeAtomic(path: string, data: WriteData, options?: AtomicWriteOptions): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Removes a file, or an empty directory. */
  remove(path: string): Promise<void>;
  /** Creates a directory; with `recursive`, parents too and no error if it exists. */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /**
   * Sets the permission bits of a file or directory (following links). Optional: a file system
   * without permissions (or a wrapper that does not pass them on) leaves it out.
   */
  chmod?(path: string, mode: number): Promise<void>;
  /**
   * Gives the file at `existing` a second name, `newPath` (a hard link): both name the same bytes,
   * so the old file stays readable under `newPath` after another file is renamed over `existing`.
   * Fails with `AlreadyExists` when `newPath` is taken; a file system without hard links fails
   * with `PermissionDenied` or `Other`.
   */
  link(existing: string, newPath: string): Promise<void>;
  /** The absolute path of what `path` names, with every symbolic link resolved; `NotFound` if nothing is there. */
  realPath(path: string): Promise<string>;
  /**
   * Calls `onChange` soon after something under `dir` (recursively) is created, written, renamed
   * or removed, with the path when the platform names it. Only a hint: events may be merged,
   * late or missing, so callers confirm with `stat` and keep a slow poll as a fallback. Absent,
   * or returning null (no such folder, no watcher left), means: poll.
   */
  watch?(dir: string, onChange: (path: string | null) => void): FsWatcher | null;
}

/** A running `watch`; `close` stops it. */
export interface FsWatcher {
  close(): void;
}
