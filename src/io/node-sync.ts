/**
 * The `SyncFileSystem` adapter over `node:fs`'s blocking calls, which Node, Deno 2 and Bun all
 * provide. Native errors leave as `FsError`s, worded as the async adapters word them.
 * @module
 */

import {
  closeSync,
  constants,
  ftruncateSync,
  type Dirent,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import type { AtomicWriteOptions, DirEntry, FileStat } from "./file-system.ts";
import { appendSync, placeNewSync } from "./node.ts";
import { isAbsent, isSpecial, mapError, notReplaceable, type FsOperation } from "./_map-error.ts";
import { siblingTempPath } from "./_temp-path.ts";
import type { AppendHandle, SyncFileSystem } from "./sync-file-system.ts";

const DEFAULT_FILE_MODE = 0o600;

function guarded<T>(op: FsOperation, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw mapError(error, op);
  }
}

function toFileStat(s: Stats): FileStat {
  return { size: s.size, mtimeMs: s.mtimeMs, isFile: s.isFile(), isDirectory: s.isDirectory(), mode: s.mode & 0o777 };
}

function stat(path: string): FileStat | null {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats ? toFileStat(stats) : null;
  } catch (error) {
    const mapped = mapError(error, { verb: "stat", path });
    if (isAbsent(mapped)) return null;
    throw mapped;
  }
}

function read(path: string, start = 0, end?: number, into?: Uint8Array): Uint8Array {
  const op = { verb: "read", path };
  const fd = guarded(op, () => openSync(path, "r"));
  try {
    return guarded(op, () => {
      const stop = Math.min(end ?? Infinity, fstatSync(fd).size);
      const size = Math.max(0, stop - start);
      const bytes = into !== undefined && size <= into.length ? into.subarray(0, size) : new Uint8Array(size);
      let length = 0;
      while (length < bytes.length) {
        const got = readSync(fd, bytes, length, bytes.length - length, start + length);
        if (got === 0) break;
        length += got;
      }
      return length === bytes.length ? bytes : bytes.subarray(0, length);
    });
  } finally {
    closeSync(fd);
  }
}

function list(dir: string): DirEntry[] {
  const entries: Dirent[] = guarded({ verb: "list", path: dir }, () => readdirSync(dir, { withFileTypes: true }));
  return entries.map((entry) => {
    if (!entry.isSymbolicLink()) return { name: entry.name, isFile: entry.isFile(), isDirectory: entry.isDirectory() };
    // A link that cannot be followed (dangling, a loop) is neither a file nor a folder.
    let target: FileStat | null = null;
    try {
      target = stat(join(dir, entry.name));
    } catch {
      // left as neither
    }
    return { name: entry.name, isFile: target?.isFile ?? false, isDirectory: target?.isDirectory ?? false };
  });
}

function writeWhole(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

function writeAtomic(path: string, data: Uint8Array, options: AtomicWriteOptions = {}): void {
  const existing = lstatSync(path, { throwIfNoEntry: false });
  if (existing && isSpecial({ isFile: existing.isFile(), isDirectory: existing.isDirectory(), isSymlink: existing.isSymbolicLink() })) throw notReplaceable(path);
  const { temp, dir } = siblingTempPath(path);
  try {
    const fd = openSync(temp, "wx", options.mode ?? DEFAULT_FILE_MODE);
    try {
      writeWhole(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.exclusive) placeNewSync(temp, path);
    else renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already in place
    }
    throw mapError(error, { verb: "write", path });
  }
  syncDirectory(dir);
}

/** Makes a rename durable; best effort (Windows cannot open a directory). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // the data itself is fsynced
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function remove(path: string): void {
  guarded({ verb: "remove", path }, () => (lstatSync(path).isDirectory() ? rmdirSync(path) : unlinkSync(path)));
}

/** How often an open append handle looks its path up again (between, it asks the open file only). */
const PATH_CHECK_MS = 20;

/**
 * An existing file opened for appends. `endsAt` asks the open file (`fstat`, no path look-up),
 * which tells its size and, by its link count, a file removed or replaced meanwhile; at most every
 * `PATH_CHECK_MS` it also looks the path up and compares device and inode, so a file moved away
 * (renamed: its lines are not lost, but the path names another file) is noticed too.
 */
function openAppend(path: string): AppendHandle {
  const op = { verb: "append to", path };
  const fd = guarded(op, () => openSync(path, constants.O_WRONLY | constants.O_APPEND));
  let opened: Stats;
  try {
    opened = guarded(op, () => fstatSync(fd));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let checked = performance.now();
  let expected = -1;
  let open = true;
  const samePath = () => {
    try {
      const now = statSync(path, { throwIfNoEntry: false });
      return now !== undefined && now.ino === opened.ino && now.dev === opened.dev;
    } catch {
      return false; // not reachable by that path: the caller goes by the path and meets the error there
    }
  };
  return {
    path,
    endsAt(size) {
      expected = -1;
      let now: Stats;
      try {
        now = fstatSync(fd);
      } catch (error) {
        throw mapError(error, op);
      }
      if (now.nlink === 0 || now.size !== size) return false;
      if (performance.now() - checked >= PATH_CHECK_MS) {
        if (!samePath()) return false;
        checked = performance.now();
      }
      expected = size;
      return true;
    },
    append(text) {
      let offset = 0;
      try {
        // A string goes to the kernel without a JS-side copy; a short write (rare) goes on in bytes.
        offset = writeSync(fd, text);
        const length = Buffer.byteLength(text);
        if (offset < length) {
          const data = Buffer.from(text);
          while (offset < length) offset += writeSync(fd, data, offset, length - offset);
        }
        return length;
      } catch (error) {
        // Taken back only when the file holds nothing after what `size` saw but our part.
        try {
          if (offset > 0 && expected >= 0 && fstatSync(fd).size === expected + offset) ftruncateSync(fd, expected);
        } catch {
          // the write's own error is the one to report
        }
        throw mapError(error, op);
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        closeSync(fd);
      } catch {
        // nothing was pending on it
      }
    },
  };
}

/** `SyncFileSystem` over `node:fs` (Node, Deno 2, Bun). */
export const nodeSyncFileSystem: SyncFileSystem = {
  read,
  stat,
  list,
  append: (path, data, options) => appendSync(path, data, options),
  writeAtomic,
  rename: (from, to) => guarded({ verb: "rename", path: from, to }, () => renameSync(from, to)),
  remove,
  mkdir: (path, options = {}) => guarded({ verb: "create directory", path }, () => void mkdirSync(path, { recursive: options.recursive ?? false })),
  link: (existing, newPath) => guarded({ verb: "link", path: existing, to: newPath }, () => linkSync(existing, newPath)),
  realPath: (path) => guarded({ verb: "resolve", path }, () => realpathSync(path)),
  openAppend,
};
