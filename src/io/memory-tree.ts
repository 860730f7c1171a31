/**
 * The tree of nodes behind `MemoryFileSystem`: directories and files with modes and mtimes,
 * path resolution against a working directory, and the POSIX rules of a rename.
 * @module
 */
import type { FsErrorKind } from "./file-system.ts";
import { fsError, type FsOperation } from "./_map-error.ts";

export interface FileNode {
  kind: "file";
  data: Uint8Array;
  mode: number;
  mtimeMs: number;
}

export interface DirNode {
  kind: "dir";
  children: Map<string, Node>;
  mode: number;
  mtimeMs: number;
}

export type Node = FileNode | DirNode;

export const DEFAULT_FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o755;

/** A root directory, the clock that stamps mtimes and the directory relative paths start from. */
export class MemoryTree {
  readonly root: DirNode;
  readonly clock: () => number;
  readonly #cwd: string[];

  constructor(clock: () => number, cwd: string) {
    this.clock = clock;
    this.root = { kind: "dir", children: new Map(), mode: DIRECTORY_MODE, mtimeMs: clock() };
    this.#cwd = resolve([], cwd);
  }

  /** Bytes of file content under `dir` (the whole tree by default). */
  used(dir: DirNode = this.root): number {
    let total = 0;
    for (const child of dir.children.values()) total += child.kind === "file" ? child.data.length : this.used(child);
    return total;
  }

  parts(path: string): string[] {
    return resolve(this.#cwd, path);
  }

  lookup(parts: string[], op: FsOperation): Node {
    let node: Node = this.root;
    for (const part of parts) {
      if (node.kind !== "dir") throw fsError("NotDirectory", op);
      const child: Node | undefined = node.children.get(part);
      if (child === undefined) throw fsError("NotFound", op);
      node = child;
    }
    return node;
  }

  /** The directory that holds `path`, which must exist, and the last name. */
  parentOf(path: string, op: FsOperation): { parent: DirNode; name: string } {
    const parts = this.parts(path);
    const name = parts.pop();
    if (name === undefined) throw fsError("Other", op, "the root directory cannot be changed");
    const parent = this.lookup(parts, op);
    if (parent.kind !== "dir") throw fsError("NotDirectory", op);
    return { parent, name };
  }

  createFile(parent: DirNode, name: string, data: Uint8Array, mode = DEFAULT_FILE_MODE): void {
    const mtimeMs = this.clock();
    parent.children.set(name, { kind: "file", data: data.slice(), mode, mtimeMs });
    parent.mtimeMs = mtimeMs;
  }

  createDir(parent: DirNode, name: string): DirNode {
    const dir: DirNode = { kind: "dir", children: new Map(), mode: DIRECTORY_MODE, mtimeMs: this.clock() };
    parent.children.set(name, dir);
    parent.mtimeMs = dir.mtimeMs;
    return dir;
  }
}

/** Absolute, normalized path components; `..` above the root stays at the root. */
function resolve(cwd: string[], path: string): string[] {
  const parts = path.startsWith("/") ? [] : [...cwd];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts;
}

/** Why `node` may not replace `existing` in a rename (POSIX rules), or `null` if it may. */
export function conflict(node: Node, existing: Node): FsErrorKind | null {
  if (node.kind === "file") return existing.kind === "dir" ? "IsDirectory" : null;
  if (existing.kind === "file") return "NotDirectory";
  return existing.children.size > 0 ? "NotEmpty" : null;
}
