/**
 * What a watcher knows of every session file (size, mtime, the last scan that listed it, and an
 * id where the name does not give it), kept folder by folder and packed: a folder's names in one
 * string, sorted, and its numbers in typed arrays. A server keeps this for its life; a map of
 * every path to an object held about 12 MB at 25,000 sessions (a path string, an object and a
 * map entry each), the packed folders about 2. Files found since the last `pack` are held
 * apart, as they came, until then.
 * @module
 */

/** What is known of one file, as `get` gives it (a copy: change it with `set`). */
export interface KnownFile {
  size: number;
  mtimeMs: number;
  /** The number of the last full scan that listed the file. */
  seen: number;
  /** The id, where the file's name does not give it. */
  id?: string;
}

/** One folder's files: names in one string (joined by "/", which no name holds), in code unit order. */
interface PackedFolder {
  names: string;
  /** Where each name ends in `names`. */
  ends: Uint32Array;
  size: Float64Array;
  mtime: Float64Array;
  seen: Float64Array;
  /** Ids of the files whose names do not give them, by slot. */
  ids: Map<number, string> | undefined;
  /** Slots of files gone since it was packed (size -1). */
  gone: number;
}

/** A path as its folder and its name. */
function split(path: string): [string, string] {
  const at = path.lastIndexOf("/");
  return [path.slice(0, at + 1), path.slice(at + 1)];
}

/** Compares `name` with the slot's name in `folder`, as `<` on strings orders them. */
function compareAt(folder: PackedFolder, slot: number, name: string): number {
  const start = slot === 0 ? 0 : folder.ends[slot - 1] + 1;
  const end = folder.ends[slot];
  const text = folder.names;
  const length = Math.min(end - start, name.length);
  for (let i = 0; i < length; i++) {
    const d = text.charCodeAt(start + i) - name.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - start - name.length;
}

/** The slot of `name` in `folder`, or -1. */
function slotOf(folder: PackedFolder, name: string): number {
  let low = 0;
  let high = folder.ends.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const d = compareAt(folder, mid, name);
    if (d === 0) return folder.size[mid] < 0 ? -1 : mid;
    if (d < 0) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

function nameAt(folder: PackedFolder, slot: number): string {
  return folder.names.slice(slot === 0 ? 0 : folder.ends[slot - 1] + 1, folder.ends[slot]);
}

/**
 * @example
 * ```ts
 * const known = new KnownFiles();
 * known.set("/s/--p--/a.jsonl", { size: 10, mtimeMs: 1, seen: 1 });
 * known.pack();
 * known.get("/s/--p--/a.jsonl")?.size; // 10
 * ```
 */
export class KnownFiles {
  readonly #folders = new Map<string, PackedFolder>();
  /** Files known since the last `pack`, by path. */
  readonly #fresh = new Map<string, KnownFile>();
  /** Folders with files gone since the last `pack`. */
  readonly #dirty = new Set<string>();

  get(path: string): KnownFile | undefined {
    const fresh = this.#fresh.get(path);
    if (fresh) return { ...fresh };
    const [dir, name] = split(path);
    const folder = this.#folders.get(dir);
    const slot = folder ? slotOf(folder, name) : -1;
    if (slot < 0) return undefined;
    const id = folder!.ids?.get(slot);
    return { size: folder!.size[slot], mtimeMs: folder!.mtime[slot], seen: folder!.seen[slot], ...(id === undefined ? {} : { id }) };
  }

  set(path: string, known: KnownFile): void {
    const [dir, name] = split(path);
    const folder = this.#folders.get(dir);
    const slot = folder ? slotOf(folder, name) : -1;
    if (slot < 0) {
      this.#fresh.set(path, { ...known });
      return;
    }
    folder!.size[slot] = known.size;
    folder!.mtime[slot] = known.mtimeMs;
    folder!.seen[slot] = known.seen;
    if (known.id === undefined) folder!.ids?.delete(slot);
    else (folder!.ids ??= new Map()).set(slot, known.id);
  }

  delete(path: string): void {
    if (this.#fresh.delete(path)) return;
    const [dir, name] = split(path);
    const folder = this.#folders.get(dir);
    const slot = folder ? slotOf(folder, name) : -1;
    if (slot < 0) return;
    folder!.size[slot] = -1;
    folder!.ids?.delete(slot);
    folder!.gone++;
    this.#dirty.add(dir);
  }

  /** Marks a known file as listed by full scan number `scan`; nothing for another. */
  see(path: string, scan: number): void {
    const fresh = this.#fresh.get(path);
    if (fresh) {
      fresh.seen = scan;
      return;
    }
    const [dir, name] = split(path);
    const folder = this.#folders.get(dir);
    const slot = folder ? slotOf(folder, name) : -1;
    if (slot >= 0) folder!.seen[slot] = scan;
  }

  /** The paths of the files whose `seen` is not `scan`, made anew. */
  unseen(scan: number): string[] {
    const paths: string[] = [];
    for (const [dir, folder] of this.#folders) {
      for (let slot = 0; slot < folder.ends.length; slot++) if (folder.size[slot] >= 0 && folder.seen[slot] !== scan) paths.push(dir + nameAt(folder, slot));
    }
    for (const [path, known] of this.#fresh) if (known.seen !== scan) paths.push(path);
    return paths;
  }

  /** Files found since the last `pack`. */
  get unpacked(): number {
    return this.#fresh.size;
  }

  get size(): number {
    let size = this.#fresh.size;
    for (const folder of this.#folders.values()) size += folder.ends.length - folder.gone;
    return size;
  }

  /** Packs the files found since the last call into their folders, and drops the slots of files gone. */
  pack(): void {
    const added = new Map<string, [string, KnownFile][]>();
    for (const [path, known] of this.#fresh) {
      const [dir, name] = split(path);
      const list = added.get(dir) ?? added.set(dir, []).get(dir)!;
      list.push([name, known]);
    }
    this.#fresh.clear();
    for (const dir of new Set([...added.keys(), ...this.#dirty])) {
      const folder = this.#folders.get(dir);
      const files = added.get(dir) ?? [];
      if (folder) {
        for (let slot = 0; slot < folder.ends.length; slot++) {
          if (folder.size[slot] < 0) continue;
          const id = folder.ids?.get(slot);
          files.push([nameAt(folder, slot), { size: folder.size[slot], mtimeMs: folder.mtime[slot], seen: folder.seen[slot], ...(id === undefined ? {} : { id }) }]);
        }
      }
      if (files.length === 0) this.#folders.delete(dir);
      else this.#folders.set(dir, packFolder(files));
    }
    this.#dirty.clear();
  }
}

/** A folder of `files` (name and what is known), packed in name order. */
function packFolder(files: [string, KnownFile][]): PackedFolder {
  files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const n = files.length;
  const folder: PackedFolder = { names: files.map(([name]) => name).join("/"), ends: new Uint32Array(n), size: new Float64Array(n), mtime: new Float64Array(n), seen: new Float64Array(n), ids: undefined, gone: 0 };
  let end = -1;
  files.forEach(([name, known], slot) => {
    end += name.length + 1;
    folder.ends[slot] = end;
    folder.size[slot] = known.size;
    folder.mtime[slot] = known.mtimeMs;
    folder.seen[slot] = known.seen;
    if (known.id !== undefined) (folder.ids ??= new Map()).set(slot, known.id);
  });
  return folder;
}
