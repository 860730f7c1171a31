/**
 * The `FileSystem` adapter for Deno, on `Deno.*` APIs only. `Deno` is touched inside
 * functions alone, so Node and Bun can import this module (e.g. via `mod.ts`) safely.
 * @module
 */

import type { AppendOptions, AtomicWriteOptions, DirEntry, FileStat, FileSystem, FsWatcher, ReadRange, WriteData } from "./file-system.ts";
import { chunksOf, SourceFailure } from "./_write-data.ts";
import { isAbsent, isSpecial, mapError, mapped, notReplaceable } from "./_map-error.ts";
import { siblingTempPath } from "./_temp-path.ts";

// Loose on purpose: the project type-checks against Node's types, where Deno does not exist.
// deno-lint-ignore no-explicit-any
declare const Deno: any;

const CHUNK_SIZE = 64 * 1024;
const DEFAULT_FILE_MODE = 0o600;
const SEEK_START = 0; // Deno.SeekMode.Start

/** The slice of `Deno.FsFile` used here. */
interface DenoFile {
  read(buffer: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  seek(offset: number, whence: number): Promise<number>;
  sync(): Promise<void>;
  stat(): Promise<{ size: number }>;
  truncate(length: number): Promise<void>;
  close(): void;
}

async function* read(path: string, range: ReadRange = {}): AsyncGenerator<Uint8Array> {
  const op = { verb: "read", path };
  const end = range.end ?? Infinity;
  let position = Math.max(0, range.start ?? 0);
  const file: DenoFile = await mapped(op, () => Deno.open(path, { read: true }));
  try {
    if (position > 0) await mapped(op, () => file.seek(position, SEEK_START));
    while (position < end) {
      const size = Math.min(CHUNK_SIZE, end - position);
      const chunk = new Uint8Array(size);
      const bytesRead = await mapped(op, () => file.read(chunk));
      if (bytesRead === null || bytesRead === 0) return;
      position += bytesRead;
      // A short read need not be the tail here, but copying it keeps buffers tight either way.
      yield bytesRead === size ? chunk : chunk.slice(0, bytesRead);
    }
  } finally {
    file.close();
  }
}

interface DenoFileInfo {
  size: number;
  mtime: Date | null;
  isFile: boolean;
  isDirectory: boolean;
  mode: number | null;
}

async function statOrNull(path: string): Promise<FileStat | null> {
  try {
    const info: DenoFileInfo = await Deno.stat(path);
    return {
      size: info.size,
      mtimeMs: info.mtime?.getTime() ?? 0,
      isFile: info.isFile,
      isDirectory: info.isDirectory,
      mode: (info.mode ?? 0) & 0o777,
    };
  } catch (error) {
    const mappedError = mapError(error, { verb: "stat", path });
    if (isAbsent(mappedError)) return null;
    throw mappedError;
  }
}

async function list(dir: string): Promise<DirEntry[]> {
  return mapped({ verb: "list", path: dir }, async () => {
    const entries: DirEntry[] = [];
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isSymlink) {
        entries.push({ name: entry.name, isFile: entry.isFile, isDirectory: entry.isDirectory });
        continue;
      }
      // A link that cannot be followed (dangling, a loop, no permission) is neither a file nor a folder.
      const target = await statOrNull(`${dir}/${entry.name}`).catch(() => null);
      entries.push({ name: entry.name, isFile: target?.isFile ?? false, isDirectory: target?.isDirectory ?? false });
    }
    return entries;
  });
}

/** One write call; loops only if the OS reports a short write. `progress` learns the bytes written so far. */
async function writeAll(file: DenoFile, data: Uint8Array, progress?: (written: number) => void): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    offset += await file.write(data.subarray(offset));
    progress?.(offset);
  }
}

async function append(path: string, data: Uint8Array, options: AppendOptions = {}): Promise<void> {
  const op = { verb: "append to", path };
  const mode = options.mode ?? DEFAULT_FILE_MODE;
  const openOptions = options.exclusive
    ? { write: true, createNew: true, mode }
    : { append: true, create: true, mode };
  const file: DenoFile = await mapped(op, () => Deno.open(path, openOptions));
  let before = 0;
  let written = 0;
  try {
    if (!options.exclusive) before = (await file.stat()).size;
    await writeAll(file, data, (offset) => (written = offset));
  } catch (error) {
    await takeBack(file, path, options.exclusive === true, before, written);
    throw mapError(error, op);
  } finally {
    file.close();
  }
}

/**
 * Undoes a failed append: removes a file it created, or cuts the file back to its old length,
 * unless someone else appended after us (the length is not ours alone to restore then).
 */
async function takeBack(file: DenoFile, path: string, created: boolean, before: number, written: number): Promise<void> {
  try {
    if (created) await Deno.remove(path);
    else if ((await file.stat()).size === before + written) await file.truncate(before);
  } catch {
    // The write's own error is the one to report.
  }
}

async function writeAtomic(path: string, data: WriteData, options: AtomicWriteOptions = {}): Promise<void> {
  const existing = await Deno.lstat(path).catch(() => null);
  if (existing && isSpecial(existing)) throw notReplaceable(path);
  const { temp, dir } = siblingTempPath(path);
  try {
    const file: DenoFile = await Deno.open(temp, { write: true, createNew: true, mode: options.mode ?? DEFAULT_FILE_MODE });
    try {
      for await (const chunk of chunksOf(data)) await writeAll(file, chunk);
      await file.sync();
    } finally {
      file.close();
    }
    if (options.exclusive) await placeNew(temp, path);
    else await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
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
async function placeNew(temp: string, path: string): Promise<void> {
  try {
    await Deno.link(temp, path);
  } catch (error) {
    if (!NO_LINKS.has((error as { code?: string }).code ?? "")) throw error;
    (await Deno.open(path, { write: true, createNew: true, mode: DEFAULT_FILE_MODE })).close();
    try {
      await Deno.rename(temp, path);
    } catch (renameError) {
      await Deno.remove(path).catch(() => {});
      throw renameError;
    }
    return;
  }
  await Deno.remove(temp).catch(() => {}); // the file is in place; the temp is only a second name for it
}

/** Makes the rename durable; platforms that cannot open a directory (Windows) skip it. */
async function syncDirectory(dir: string): Promise<void> {
  let file: DenoFile | undefined;
  try {
    file = await Deno.open(dir, { read: true });
    await file!.sync();
  } catch {
    // Best effort by design: the data itself is already fsynced.
  } finally {
    file?.close();
  }
}

interface DenoWatcher extends AsyncIterable<{ paths: string[] }> {
  close(): void;
}

/** `Deno.watchFs`, recursive: a hint, so any failure means "poll". */
function watch(dir: string, onChange: (path: string | null) => void): FsWatcher | null {
  let watcher: DenoWatcher;
  try {
    watcher = Deno.watchFs(dir, { recursive: true }) as DenoWatcher;
  } catch {
    return null;
  }
  (async () => {
    try {
      for await (const event of watcher) {
        if (event.paths.length === 0) onChange(null);
        for (const path of event.paths) onChange(path);
      }
    } catch {
      // Closed, or the folder went away: the caller's poll carries on.
    }
  })();
  return { close: () => {
    try {
      watcher.close();
    } catch {
      // Already closed.
    }
  } };
}

/** `FileSystem` over `Deno.*`; use it only when running under Deno. */
export const denoFileSystem: FileSystem = {
  read,
  stat: statOrNull,
  list,
  append,
  writeAtomic,
  rename: (from, to) => mapped({ verb: "rename", path: from, to }, () => Deno.rename(from, to)),
  remove: (path) => mapped({ verb: "remove", path }, () => Deno.remove(path)),
  mkdir: (path, options = {}) =>
    mapped({ verb: "create directory", path }, () => Deno.mkdir(path, { recursive: options.recursive ?? false })),
  watch,
  chmod: (path, mode) => mapped({ verb: "change the permissions of", path }, () => Deno.chmod(path, mode)),
  link: (existing, newPath) => mapped({ verb: "link", path: existing, to: newPath }, () => Deno.link(existing, newPath)),
  realPath: (path) => mapped({ verb: "resolve", path }, () => Deno.realPath(path)),
};
