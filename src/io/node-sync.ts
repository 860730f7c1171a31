/**
 * The `SyncFileSystem` adapter over `node:fs`'s blocking calls, which Node, Deno 2 and Bun all
 * provide. Native errors leave as `FsError`s, worded as the async adapters word them.
 * @module
 */

import {
  closeSync,
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
import { join } from "node:path";
import type { AtomicWriteOptions, DirEntry, FileStat } from "./file-system.ts";
import { appendSync, placeNewSync } from "./node.ts";
import { isAbsent, mapError, type FsOperation } from "./_map-error.ts";
import { siblingTempPath } from "./_temp-path.ts";
import type { SyncFileSystem } from "./sync-file-system.ts";

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

function read(path: string, start = 0, end?: number): Uint8Array {
  const op = { verb: "read", path };
  const fd = guarded(op, () => openSync(path, "r"));
  try {
    return guarded(op, () => {
      const stop = Math.min(end ?? Infinity, fstatSync(fd).size);
      const bytes = new Uint8Array(Math.max(0, stop - start));
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
};
