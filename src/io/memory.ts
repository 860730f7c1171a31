/**
 * A `FileSystem` held in memory: POSIX paths, directories, modes and mtimes from an
 * injectable clock. It backs tests and `SessionManager.inMemory`, and fails like a disk would.
 * @module
 */

import {
  type AppendOptions,
  type AtomicWriteOptions,
  type DirEntry,
  type FileStat,
  type FileSystem,
  type FsWatcher,
  isFsError,
  type ReadRange,
  type WriteData,
} from "./file-system.ts";
import { chunksOf, SourceFailure } from "./_write-data.ts";
import { fsError, type FsOperation, isAbsent, mapError } from "./_map-error.ts";
import type { SyncFileSystem } from "./sync-file-system.ts";
import { conflict, type DirNode, MemoryTree, type Node } from "./memory-tree.ts";

/** Options for `new MemoryFileSystem()`. */
export interface MemoryFileSystemOptions {
  /** Source of mtimes, in milliseconds since the epoch; defaults to `Date.now`. */
  clock?: () => number;
  /** Directory that relative paths resolve against; defaults to `/`. */
  cwd?: string;
  /** Largest chunk `read` yields, so tests can exercise chunk boundaries; defaults to 64 KiB. */
  chunkSize?: number;
  /**
   * Bytes of file content the file system holds at most: a write past it fails as a full disk
   * does (`no space left on the device`), and, like the disk adapters, leaves nothing of itself.
   * A rewrite needs room for old and new content at once (the temp file sits beside the old one).
   */
  quota?: number;
  /**
   * Called before each step that changes the file system; an error it throws (a native-looking
   * `{ code: "ENOSPC" }` works) fails that step, which then changes nothing.
   */
  fault?: (step: MemoryWriteStep) => void;
}

/** A step that changes a `MemoryFileSystem`, as its `fault` hook sees it. */
export interface MemoryWriteStep {
  op: "append" | "write" | "rename" | "remove" | "mkdir";
  path: string;
  /** For `append` and `write`: the bytes to be written. */
  bytes?: number;
}

/**
 * An in-memory `FileSystem` that starts with an empty root directory.
 *
 * @example Pinning mtimes
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryFileSystem } from "./mod.ts";
 *
 * const fs = new MemoryFileSystem({ clock: () => 1_000 });
 * await fs.append("/a.jsonl", new TextEncoder().encode("{}\n"));
 * assert.equal((await fs.stat("/a.jsonl"))?.mtimeMs, 1_000);
 * ```
 */
export class MemoryFileSystem implements FileSystem {
  readonly #tree: MemoryTree;
  readonly #chunkSize: number;
  readonly #watchers = new Set<{ dir: string[]; onChange: (path: string) => void }>();
  readonly #quota: number;
  readonly #fault: ((step: MemoryWriteStep) => void) | undefined;
  #sync: SyncFileSystem | undefined;

  constructor(options: MemoryFileSystemOptions = {}) {
    this.#quota = options.quota ?? Infinity;
    this.#fault = options.fault;
    this.#tree = new MemoryTree(options.clock ?? Date.now, options.cwd ?? "/");
    this.#chunkSize = Math.max(1, options.chunkSize ?? 64 * 1024);
  }

  async *read(path: string, range: ReadRange = {}): AsyncGenerator<Uint8Array> {
    const op = { verb: "read", path };
    const node = this.#tree.lookup(this.#tree.parts(path), op);
    if (node.kind === "dir") throw fsError("IsDirectory", op);
    const data = node.data; // appends replace the array, so this is a stable snapshot
    const end = Math.min(range.end ?? data.length, data.length);
    for (let at = Math.max(0, range.start ?? 0); at < end; at += this.#chunkSize) {
      yield data.slice(at, Math.min(at + this.#chunkSize, end));
    }
  }

  /** `stat`, blocking (the `sync` view uses it). */
  statSync(path: string): FileStat | null {
    try {
      const node = this.#tree.lookup(this.#tree.parts(path), { verb: "stat", path });
      return {
        size: node.kind === "file" ? node.data.length : 0,
        mtimeMs: node.mtimeMs,
        isFile: node.kind === "file",
        isDirectory: node.kind === "dir",
        mode: node.mode,
      };
    } catch (error) {
      if (isFsError(error) && isAbsent(error)) return null;
      throw error;
    }
  }

  /** `list`, blocking (the `sync` view uses it). */
  listSync(dir: string): DirEntry[] {
    const op = { verb: "list", path: dir };
    const node = this.#tree.lookup(this.#tree.parts(dir), op);
    if (node.kind !== "dir") throw fsError("NotDirectory", op);
    return [...node.children].map(([name, child]) => ({
      name,
      isFile: child.kind === "file",
      isDirectory: child.kind === "dir",
    }));
  }

  /** `append`, blocking (the `sync` view uses it). */
  appendSync(path: string, data: Uint8Array, options: AppendOptions = {}): void {
    const op = { verb: "append to", path };
    const { parent, name } = this.#tree.parentOf(path, op);
    const existing = parent.children.get(name);
    if (existing !== undefined && options.exclusive) throw fsError("AlreadyExists", op);
    if (existing?.kind === "dir") throw fsError("IsDirectory", op);
    this.#step({ op: "append", path, bytes: data.length }, op, data.length);
    if (existing === undefined) {
      this.#tree.createFile(parent, name, data, options.mode);
      this.#changed(path);
      return;
    }
    const joined = new Uint8Array(existing.data.length + data.length);
    joined.set(existing.data);
    joined.set(data, existing.data.length);
    existing.data = joined;
    existing.mtimeMs = this.#tree.clock();
    this.#changed(path);
  }

  async writeAtomic(path: string, data: WriteData, options: AtomicWriteOptions = {}): Promise<void> {
    this.#writeTarget(path, options);
    // A Blob per chunk copies it as it comes (a producer may reuse its buffer); the file is replaced at the end.
    const parts: Blob[] = [];
    try {
      for await (const chunk of chunksOf(data)) parts.push(new Blob([chunk as Uint8Array<ArrayBuffer>]));
    } catch (error) {
      throw error instanceof SourceFailure ? error.error : error;
    }
    this.writeAtomicSync(path, new Uint8Array(await new Blob(parts).arrayBuffer()), options);
  }

  /** `writeAtomic` of bytes at hand, blocking (the `sync` view uses it). */
  writeAtomicSync(path: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): void {
    const op = { verb: "write", path };
    this.#writeTarget(path, options);
    this.#step({ op: "write", path, bytes: bytes.length }, op, bytes.length);
    const { parent, name } = this.#writeTarget(path, options);
    this.#step({ op: "rename", path }, op);
    this.#tree.createFile(parent, name, bytes, options.mode);
    this.#changed(path);
  }

  /** Bytes `[start, end)` of a file, blocking (the `sync` view uses it). */
  readSync(path: string, start = 0, end?: number): Uint8Array {
    const op = { verb: "read", path };
    const node = this.#tree.lookup(this.#tree.parts(path), op);
    if (node.kind === "dir") throw fsError("IsDirectory", op);
    return node.data.slice(Math.max(0, start), Math.min(end ?? node.data.length, node.data.length));
  }

  /**
   * The same disk as a `SyncFileSystem` (for `pi-session/compat` and other synchronous callers):
   * what one view writes, the other reads.
   */
  get sync(): SyncFileSystem {
    return this.#sync ??= {
      read: (path, start, end) => this.readSync(path, start, end),
      stat: (path) => this.statSync(path),
      list: (dir) => this.listSync(dir),
      append: (path, data, options) => this.appendSync(path, data, options),
      writeAtomic: (path, data, options) => this.writeAtomicSync(path, data, options),
      rename: (from, to) => this.renameSync(from, to),
      remove: (path) => this.removeSync(path),
      mkdir: (path, options) => this.mkdirSync(path, options),
      link: (existing, newPath) => this.linkSync(existing, newPath),
      realPath: (path) => this.realPathSync(path),
    };
  }

  async stat(path: string): Promise<FileStat | null> {
    return this.statSync(path);
  }

  async list(dir: string): Promise<DirEntry[]> {
    return this.listSync(dir);
  }

  async append(path: string, data: Uint8Array, options: AppendOptions = {}): Promise<void> {
    return this.appendSync(path, data, options);
  }

  async rename(from: string, to: string): Promise<void> {
    return this.renameSync(from, to);
  }

  async remove(path: string): Promise<void> {
    return this.removeSync(path);
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    return this.mkdirSync(path, options);
  }

  async chmod(path: string, mode: number): Promise<void> {
    return this.chmodSync(path, mode);
  }

  async link(existing: string, newPath: string): Promise<void> {
    return this.linkSync(existing, newPath);
  }

  async realPath(path: string): Promise<string> {
    return this.realPathSync(path);
  }

  /** `rename`, blocking (the `sync` view uses it). */
  renameSync(from: string, to: string): void {
    const op = { verb: "rename", path: from, to };
    const fromParts = this.#tree.parts(from);
    const toParts = this.#tree.parts(to);
    const source = this.#tree.parentOf(from, op);
    const node = source.parent.children.get(source.name);
    if (node === undefined) throw fsError("NotFound", op);
    const target = this.#tree.parentOf(to, op);
    if (fromParts.join("/") === toParts.join("/")) return;
    if (node.kind === "dir" && fromParts.every((part, i) => toParts[i] === part)) {
      throw fsError("Other", op, "cannot move a directory inside itself");
    }
    const existing = target.parent.children.get(target.name);
    if (existing !== undefined) {
      const clash = conflict(node, existing);
      if (clash !== null) throw fsError(clash, op);
    }
    this.#step({ op: "rename", path: from }, op);
    source.parent.children.delete(source.name);
    target.parent.children.set(target.name, node);
    source.parent.mtimeMs = target.parent.mtimeMs = this.#tree.clock();
    this.#changed(from);
    this.#changed(to);
  }

  /** `remove`, blocking (the `sync` view uses it). */
  removeSync(path: string): void {
    const op = { verb: "remove", path };
    const { parent, name } = this.#tree.parentOf(path, op);
    const node = parent.children.get(name);
    if (node === undefined) throw fsError("NotFound", op);
    if (node.kind === "dir" && node.children.size > 0) throw fsError("NotEmpty", op);
    this.#step({ op: "remove", path }, op);
    parent.children.delete(name);
    parent.mtimeMs = this.#tree.clock();
    this.#changed(path);
  }

  /** Tells every watcher of a folder above `path`, after the change is made (as a disk would). */
  watch(dir: string, onChange: (path: string | null) => void): FsWatcher | null {
    let node: Node;
    try {
      node = this.#tree.lookup(this.#tree.parts(dir), { verb: "watch", path: dir });
    } catch {
      return null;
    }
    if (node.kind !== "dir") return null;
    const watcher = { dir: this.#tree.parts(dir), onChange };
    this.#watchers.add(watcher);
    return { close: () => void this.#watchers.delete(watcher) };
  }

  #changed(path: string): void {
    if (this.#watchers.size === 0) return;
    const parts = this.#tree.parts(path);
    const absolute = "/" + parts.join("/");
    for (const watcher of this.#watchers) {
      if (watcher.dir.every((part, i) => parts[i] === part)) queueMicrotask(() => watcher.onChange(absolute));
    }
  }

  /** `mkdir`, blocking (the `sync` view uses it). */
  mkdirSync(path: string, options: { recursive?: boolean } = {}): void {
    const op = { verb: "create directory", path };
    const parts = this.#tree.parts(path);
    if (parts.length === 0 && !options.recursive) throw fsError("AlreadyExists", op);
    if (!options.recursive) {
      const { parent, name } = this.#tree.parentOf(path, op);
      if (parent.children.has(name)) throw fsError("AlreadyExists", op);
      this.#step({ op: "mkdir", path }, op);
      this.#tree.createDir(parent, name);
      return;
    }
    let dir = this.#tree.root;
    for (const [i, part] of parts.entries()) {
      const child = dir.children.get(part) ?? this.#tree.createDir(dir, part);
      if (child.kind === "file") throw fsError(i === parts.length - 1 ? "AlreadyExists" : "NotDirectory", op);
      dir = child;
    }
  }

  /** `chmod`, blocking (the `sync` view uses it). */
  chmodSync(path: string, mode: number): void {
    const node = this.#tree.lookup(this.#tree.parts(path), { verb: "change the permissions of", path });
    node.mode = mode & 0o7777;
  }

  /** `link`, blocking (the `sync` view uses it). */
  linkSync(existing: string, newPath: string): void {
    const op = { verb: "link", path: existing, to: newPath };
    const node = this.#tree.lookup(this.#tree.parts(existing), op);
    if (node.kind === "dir") throw fsError("PermissionDenied", op);
    const target = this.#tree.parentOf(newPath, op);
    if (target.parent.children.has(target.name)) throw fsError("AlreadyExists", op);
    // The same node under two names: an append through either shows in both, as on a disk.
    target.parent.children.set(target.name, node);
    target.parent.mtimeMs = this.#tree.clock();
  }

  /** `realPath`, blocking (the `sync` view uses it). */
  realPathSync(path: string): string {
    const parts = this.#tree.parts(path);
    this.#tree.lookup(parts, { verb: "resolve", path }); // no links here: only whether it exists
    return `/${parts.join("/")}`;
  }

  /** Where `writeAtomic` puts `path`: its folder and name, refused when a folder or (exclusive) anything is there. */
  #writeTarget(path: string, options: AtomicWriteOptions): { parent: DirNode; name: string } {
    const op = { verb: "write", path };
    const { parent, name } = this.#tree.parentOf(path, op);
    const existing = parent.children.get(name);
    if (existing?.kind === "dir") throw fsError("IsDirectory", op);
    if (existing !== undefined && options.exclusive) throw fsError("AlreadyExists", op);
    return { parent, name };
  }

  /** Runs the fault hook, and fails a write of `bytes` more that would not fit in the quota. */
  #step(step: MemoryWriteStep, op: FsOperation, bytes = 0): void {
    try {
      this.#fault?.(step);
    } catch (error) {
      throw mapError(error, op);
    }
    if (bytes > 0 && this.#quota !== Infinity && this.#tree.used() + bytes > this.#quota) throw fsError("Other", op, "no space left on the device");
  }

}
