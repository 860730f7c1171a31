/**
 * The `FileSystem` adapter for Node (also what Deno and Bun run through `node:fs`).
 * Every native error leaves through `mapError`, so callers only ever see `FsError`.
 * @module
 */

import { lstat, mkdir, open, readdir, rename, rm, rmdir, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import type { AppendOptions, DirEntry, FileStat, FileSystem, ReadRange, WriteOptions } from "./file-system.ts";
import { isAbsent, mapError, mapped } from "./_map-error.ts";
import { siblingTempPath } from "./_temp-path.ts";

const CHUNK_SIZE = 1024 * 1024;
const DEFAULT_FILE_MODE = 0o600;

async function* read(path: string, range: ReadRange = {}): AsyncGenerator<Uint8Array> {
  const op = { verb: "read", path };
  const end = range.end ?? Infinity;
  let position = Math.max(0, range.start ?? 0);
  const handle = await mapped(op, () => open(path, "r"));
  // Chunks are Buffers (still Uint8Arrays to the caller): their indexOf, which the line
  // splitter leans on, is several times faster on Node than a plain Uint8Array's.
  const shared = range.reuseBuffer ? Buffer.allocUnsafeSlow(Math.min(CHUNK_SIZE, Math.max(0, end - position))) : undefined;
  try {
    while (position < end) {
      const size = Math.min(CHUNK_SIZE, end - position);
      const chunk = shared && shared.length >= size ? shared.subarray(0, size) : Buffer.allocUnsafeSlow(size);
      const { bytesRead } = await mapped(op, () => handle.read(chunk, 0, size, position));
      if (bytesRead === 0) return;
      position += bytesRead;
      // A short read is the tail: copy it so the caller does not keep a mostly empty buffer.
      yield bytesRead === size ? chunk : shared ? chunk.subarray(0, bytesRead) : Buffer.from(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

function toFileStat(s: Stats): FileStat {
  return {
    size: s.size,
    mtimeMs: s.mtimeMs,
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    mode: s.mode & 0o777,
  };
}

async function statOrNull(path: string): Promise<FileStat | null> {
  try {
    // Synchronous on purpose: a warm listing stats thousands of files, and on Node 20 the
    // promise-based stat costs several times more than the call itself.
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats ? toFileStat(stats) : null;
  } catch (error) {
    const mappedError = mapError(error, { verb: "stat", path });
    if (isAbsent(mappedError)) return null;
    throw mappedError;
  }
}

async function list(dir: string): Promise<DirEntry[]> {
  const entries = await mapped({ verb: "list", path: dir }, () => readdir(dir, { withFileTypes: true }));
  return Promise.all(entries.map(async (entry): Promise<DirEntry> => {
    if (!entry.isSymbolicLink()) {
      return { name: entry.name, isFile: entry.isFile(), isDirectory: entry.isDirectory() };
    }
    const target = await statOrNull(join(dir, entry.name));
    return { name: entry.name, isFile: target?.isFile ?? false, isDirectory: target?.isDirectory ?? false };
  }));
}

/** One write call; loops only if the kernel reports a short write. */
async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

async function append(path: string, data: Uint8Array, options: AppendOptions = {}): Promise<void> {
  const op = { verb: "append to", path };
  const flag = options.exclusive ? "wx" : "a";
  const handle = await mapped(op, () => open(path, flag, options.mode ?? DEFAULT_FILE_MODE));
  try {
    await mapped(op, () => writeAll(handle, data));
  } finally {
    await handle.close();
  }
}

async function writeAtomic(path: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
  const { temp, dir } = siblingTempPath(path);
  try {
    const handle = await open(temp, "wx", options.mode ?? DEFAULT_FILE_MODE);
    try {
      await writeAll(handle, data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw mapError(error, { verb: "write", path });
  }
  await syncDirectory(dir);
}

/** Makes the rename durable; platforms that cannot open a directory (Windows) skip it. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Best effort by design: the data itself is already fsynced.
  } finally {
    await handle?.close().catch(() => {});
  }
}

async function remove(path: string): Promise<void> {
  await mapped({ verb: "remove", path }, async () => {
    // lstat, so a link to a directory is unlinked rather than treated as the directory.
    const isDirectory = (await lstat(path)).isDirectory();
    await (isDirectory ? rmdir(path) : unlink(path));
  });
}

/** `FileSystem` over `node:fs/promises`. */
export const nodeFileSystem: FileSystem = {
  read,
  stat: statOrNull,
  list,
  append,
  writeAtomic,
  rename: (from, to) => mapped({ verb: "rename", path: from, to }, () => rename(from, to)),
  remove,
  mkdir: (path, options = {}) =>
    mapped({ verb: "create directory", path }, async () => {
      await mkdir(path, { recursive: options.recursive ?? false });
    }),
};
