/**
 * The `FileSystem` adapter for Node (also what Deno and Bun run through `node:fs`).
 * Every native error leaves through `mapError`, so callers only ever see `FsError`.
 * @module
 */

import { chmod, link, lstat, mkdir, open, realpath, rename, rm, rmdir, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { closeSync, type Dirent, fstatSync, ftruncateSync, linkSync, openSync, readdirSync, readSync, renameSync, type Stats, statSync, unlinkSync, watch as watchTree, writeSync } from "node:fs";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import type { AppendOptions, AtomicWriteOptions, DirEntry, FileStat, FileSystem, FsWatcher, ReadRange, WriteData } from "./file-system.ts";
import { chunksOf, SourceFailure } from "./_write-data.ts";
import { isAbsent, isSpecial, mapError, mapped, notReplaceable } from "./_map-error.ts";
import { siblingTempPath } from "./_temp-path.ts";

const CHUNK_SIZE = 1024 * 1024;
const DEFAULT_FILE_MODE = 0o600;

/**
 * Buffers of `CHUNK_SIZE` that `reuseBuffer` reads hand out and get back once the caller has
 * read to the end. Reading into memory the process already has is over twice as fast as into
 * fresh pages, whose faults cost more than the copy (a search reads 200 MB of small files).
 */
const spare: Buffer[] = [];
const MAX_SPARE = 4;

function release(buffer: Buffer | undefined): void {
  if (buffer && spare.length < MAX_SPARE) spare.push(buffer);
}

/** Reads into `chunk` at file offset `position` until it is full or the file ends; the bytes read. */
function fill(fd: number, chunk: Buffer, position: number): number {
  let length = 0;
  while (length < chunk.length) {
    const bytesRead = readSync(fd, chunk, length, chunk.length - length, position + length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return length;
}

/**
 * Bytes `[start, end)` in chunks of up to `CHUNK_SIZE`, read with blocking calls. Synchronous on
 * purpose, as `stat` is: a search reads thousands of small session files whole, and on Node 20 the
 * three promise-based calls (open, read, close) cost more than the reading itself; for large
 * files the blocking reads measured faster too (context on a 90 MB session: 340 ms against 430),
 * and they let a catalog refresh go one file at a time at no cost (which halves its peak memory
 * under Bun). Chunks are Buffers (still Uint8Arrays to the caller): their indexOf, which the line
 * splitter leans on, is several times faster on Node than a plain Uint8Array's.
 */
async function* read(path: string, range: ReadRange = {}): AsyncGenerator<Uint8Array> {
  const op = { verb: "read", path };
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw mapError(error, op);
  }
  let position = Math.max(0, range.start ?? 0);
  // One buffer for every chunk with `reuseBuffer` (the caller is done with a chunk once it asks for the next).
  const shared = range.reuseBuffer ? spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_SIZE) : undefined;
  try {
    let end: number;
    try {
      // Without an end, the file's size now; with one, reading stops at the end of the file anyway.
      end = range.end ?? fstatSync(fd).size;
    } catch (error) {
      throw mapError(error, op);
    }
    while (position < end) {
      const size = Math.min(CHUNK_SIZE, end - position);
      const chunk = shared ? shared.subarray(0, size) : Buffer.allocUnsafe(size);
      let length: number;
      try {
        length = fill(fd, chunk, position);
      } catch (error) {
        throw mapError(error, op);
      }
      if (length === 0) break;
      position += length;
      // A short read is the tail: copy it so the caller does not keep a mostly empty buffer.
      yield length === size || shared ? chunk.subarray(0, length) : Buffer.from(chunk.subarray(0, length));
      if (length < size) break;
    }
  } finally {
    closeSync(fd);
  }
  // Reached only when the caller read to the end (one that breaks off may still hold a chunk:
  // its buffer is left to the garbage collector).
  release(shared);
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
  return statNow(path);
}

/** `stat`, blocking: what `statOrNull` does, without the promise. */
function statNow(path: string): FileStat | null {
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
  let entries: Dirent[];
  try {
    // Synchronous, like `stat`: a listing reads dozens of project folders, and the promise
    // form costs more than the call.
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw mapError(error, { verb: "list", path: dir });
  }
  const listed: DirEntry[] = [];
  for (const entry of entries) {
    if (!entry.isSymbolicLink()) {
      listed.push({ name: entry.name, isFile: entry.isFile(), isDirectory: entry.isDirectory() });
      continue;
    }
    // A link that cannot be followed (dangling, a loop, no permission) is neither a file nor a folder.
    const target = await statOrNull(join(dir, entry.name)).catch(() => null);
    listed.push({ name: entry.name, isFile: target?.isFile ?? false, isDirectory: target?.isDirectory ?? false });
  }
  return listed;
}

/** One write call; loops only if the kernel reports a short write. */
async function writeAll(handle: FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/**
 * Appends in blocking calls, like reads: a command that reads and writes (an export) then never
 * waits for the thread pool between the two (its reads give the event loop no turn in which
 * a pending write could move on).
 */
/** `append` with blocking calls; the sync adapter (`node-sync.ts`) uses it too. */
export function appendSync(path: string, data: Uint8Array, options: AppendOptions = {}): void {
  const op = { verb: "append to", path };
  let fd: number;
  try {
    fd = openSync(path, options.exclusive ? "wx" : "a", options.mode ?? DEFAULT_FILE_MODE);
  } catch (error) {
    throw mapError(error, op);
  }
  let before = 0;
  let offset = 0;
  try {
    if (!options.exclusive) before = fstatSync(fd).size;
    // One write call; loops only if the kernel reports a short write.
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
  } catch (error) {
    takeBack(fd, path, options.exclusive === true, before, offset);
    throw mapError(error, op);
  } finally {
    closeSync(fd);
  }
}

async function append(path: string, data: Uint8Array, options: AppendOptions = {}): Promise<void> {
  appendSync(path, data, options);
}

/**
 * Undoes a failed append: removes a file it created, or cuts the file back to its old length,
 * unless someone else appended after us (the length is not ours alone to restore then).
 */
function takeBack(fd: number, path: string, created: boolean, before: number, written: number): void {
  try {
    if (created) unlinkSync(path);
    else if (fstatSync(fd).size === before + written) ftruncateSync(fd, before);
  } catch {
    // The write's own error is the one to report.
  }
}

/** Writes `data` into the new file `temp` (created with `mode`, failing if it exists) and makes it durable. */
export type TempWriter = (temp: string, data: WriteData, mode: number) => Promise<void>;

async function writeTemp(temp: string, data: WriteData, mode: number): Promise<void> {
  const handle = await open(temp, "wx", mode);
  try {
    for await (const chunk of chunksOf(data)) await writeAll(handle, chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `writeAtomic` with the temp file written by `write` (the Bun adapter writes big files past the cache). */
export function atomicWriter(write: TempWriter): FileSystem["writeAtomic"] {
  return (path, data, options) => writeAtomicWith(write, path, data, options);
}

async function writeAtomicWith(write: TempWriter, path: string, data: WriteData, options: AtomicWriteOptions = {}): Promise<void> {
  const existing = await lstat(path).catch(() => null);
  if (existing && isSpecial({ isFile: existing.isFile(), isDirectory: existing.isDirectory(), isSymlink: existing.isSymbolicLink() })) throw notReplaceable(path);
  const { temp, dir } = siblingTempPath(path);
  try {
    await write(temp, data, options.mode ?? DEFAULT_FILE_MODE);
    if (options.exclusive) placeNewSync(temp, path);
    else await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    if (error instanceof SourceFailure) throw error.error;
    throw mapError(error, { verb: "write", path });
  }
  await syncDirectory(dir);
}

/** Codes for a file system without hard links. */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK"]);

/**
 * Puts a finished temp file at `path` only if nothing is there: `link` fails on an existing
 * name, where `rename` would replace it. Without hard links, the name is reserved empty first.
 */
export function placeNewSync(temp: string, path: string): void {
  try {
    linkSync(temp, path);
  } catch (error) {
    if (!NO_LINKS.has((error as { code?: string }).code ?? "")) throw error;
    closeSync(openSync(path, "wx", 0o600));
    try {
      renameSync(temp, path);
    } catch (renameError) {
      try {
        unlinkSync(path);
      } catch {
        // the rename's error is the one to report
      }
      throw renameError;
    }
    return;
  }
  try {
    unlinkSync(temp); // the file is in place; the temp is only a second name for it
  } catch {
    // best effort
  }
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

/** `fs.watch`, recursive (Linux since Node 19.1, and Bun): a hint, so any failure means "poll". */
function watch(dir: string, onChange: (path: string | null) => void): FsWatcher | null {
  try {
    // Not every runtime's fs.watch throws at once for a missing folder (Deno's emits later).
    if (!statSync(dir).isDirectory()) return null;
    const watcher = watchTree(dir, { recursive: true, persistent: false }, (_event, name) => {
      onChange(name === null || name === undefined ? null : join(dir, String(name)));
    });
    // An error later (the folder removed, the watch limit reached) ends the hints, not the server.
    watcher.on("error", () => watcher.close());
    return { close: () => watcher.close() };
  } catch {
    return null;
  }
}

/** `FileSystem` over `node:fs/promises`. */
export const nodeFileSystem: FileSystem = {
  read,
  stat: statOrNull,
  statNow,
  list,
  append,
  writeAtomic: atomicWriter(writeTemp),
  rename: (from, to) => mapped({ verb: "rename", path: from, to }, () => rename(from, to)),
  remove,
  mkdir: (path, options = {}) =>
    mapped({ verb: "create directory", path }, async () => {
      await mkdir(path, { recursive: options.recursive ?? false });
    }),
  watch,
  chmod: (path, mode) => mapped({ verb: "change the permissions of", path }, () => chmod(path, mode)),
  link: (existing, newPath) => mapped({ verb: "link", path: existing, to: newPath }, () => link(existing, newPath)),
  realPath: (path) => mapped({ verb: "resolve", path }, () => realpath(path)),
};
