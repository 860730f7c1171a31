/**
 * The stored stamps (size, mtime, header id) of a section, gone through one at a time and kept
 * as a few numbers per file of a walk: a walk of 25,000 sessions held a `Map` of every stamp
 * (a second copy of each path, an object each, and the query's rows before it) for each section
 * it checked, about 300 bytes per session and twice that in garbage.
 * @module
 */
import { type CollectFn, GarbagePacer } from "../io/garbage-pacer.ts";
import type { CatalogStore, SectionKey } from "./store.ts";

/** Stamps (or stats) between two young collections while a section's stamps (a walk's stats) go by. */
export const YOUNG_EVERY = 2048;

/**
 * Collections paced by the rows or stats a pass over every file goes through, each of which
 * leaves an object and a string or a promise behind (Bun let them pile up: 10 MB for each
 * section's stamps over 25,000 sessions): a young collection every `YOUNG_EVERY`, and at the
 * `end` a full one, for a pass at least that long (a short one, as of a single project, is left
 * to the engine).
 */
export class PassCollector extends GarbagePacer {
  /** `collect`: how to collect (`collectGarbage`; tests count the calls instead). */
  constructor(collect?: CollectFn) {
    super({ everyItems: YOUNG_EVERY, itemsYoung: true, endFrom: YOUNG_EVERY, collect });
  }
}

/** Hears one stored stamp; the path is the store's own string (drop it, or look it up). */
export type StampVisitor = (path: string, size: number, mtimeMs: number, headerId: string | null) => void;

/**
 * Calls `visit` with each record's stamp in `section`, in the store's order: row by row where the
 * store streams them (`eachStamp`), else from its map of stamps (header ids then null where it
 * only lists stamps). Throws what the store throws.
 */
export async function eachStamp(store: CatalogStore, section: SectionKey, visit: StampVisitor): Promise<void> {
  if (store.eachStamp) {
    const collector = new PassCollector();
    await store.eachStamp(section, (path, size, mtimeMs, headerId) => {
      collector.item();
      visit(path, size, mtimeMs, headerId);
    });
    collector.end();
    return;
  }
  if (store.loadHeaderIds) {
    for (const [path, stamp] of await store.loadHeaderIds(section)) visit(path, stamp.size, stamp.mtimeMs, stamp.headerId);
    return;
  }
  if (!store.loadStamps) throw new Error("the store lists no stamps");
  for (const [path, stamp] of await store.loadStamps(section)) visit(path, stamp.size, stamp.mtimeMs, null);
}

/** Each distinct path of `files` and its place among them (first occurrence), for the typed arrays of `FileStamps`. */
export function fileIndex(files: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (const path of files) if (!index.has(path)) index.set(path, index.size);
  return index;
}

/**
 * The stamps a section holds for the files of an index (`fileIndex`), by the files' places:
 * whether a file has a record, its size and mtime, and (with `ids`) its header id. Stored paths
 * are not kept: those of no file in the index go to `other`.
 */
export class FileStamps {
  readonly found: Uint8Array;
  readonly size: Float64Array;
  readonly mtimeMs: Float64Array;
  /** With `ids`: each found file's header id (null: none usable). */
  readonly headerIds: (string | null)[] | undefined;

  constructor(files: number, ids = false) {
    this.found = new Uint8Array(files);
    this.size = new Float64Array(files);
    this.mtimeMs = new Float64Array(files);
    this.headerIds = ids ? new Array(files).fill(null) : undefined;
  }

  /**
   * The stamps of `section` for the files of `index`. `other` hears each stored path that is not
   * in it (in the store's order).
   */
  static load(store: CatalogStore, section: SectionKey, index: ReadonlyMap<string, number>, options: { ids?: boolean; other?: (path: string) => void } = {}): Promise<FileStamps> {
    return FileStamps.from((visit) => eachStamp(store, section, visit), index, options);
  }

  /** As `load`, from any source of stamps (`each` calls its visitor once per stamp). */
  static async from(each: (visit: StampVisitor) => Promise<void> | void, index: ReadonlyMap<string, number>, options: { ids?: boolean; other?: (path: string) => void } = {}): Promise<FileStamps> {
    const stamps = new FileStamps(index.size, options.ids);
    const { found, size, mtimeMs, headerIds } = stamps;
    await each((path, bytes, mtime, headerId) => {
      const k = index.get(path);
      if (k === undefined) return options.other?.(path);
      found[k] = 1;
      size[k] = bytes;
      mtimeMs[k] = mtime;
      if (headerIds) headerIds[k] = headerId;
    });
    return stamps;
  }
}

/**
 * The header ids of the files of an index that `current` marks, by path: what
 * `Catalog.storedHeaderIds` answers, over the index and arrays it built rather than a map of its own.
 */
export class StoredIds {
  readonly #index: ReadonlyMap<string, number>;
  readonly #current: Uint8Array;
  readonly #ids: readonly (string | null)[];
  readonly size: number;

  constructor(index: ReadonlyMap<string, number>, current: Uint8Array, ids: readonly (string | null)[]) {
    this.#index = index;
    this.#current = current;
    this.#ids = ids;
    let size = 0;
    for (const marked of current) size += marked;
    this.size = size;
  }

  /** The header id of `path` (null: none usable); undefined when it has no current record. */
  get(path: string): string | null | undefined {
    const k = this.#index.get(path);
    return k !== undefined && this.#current[k] ? this.#ids[k] : undefined;
  }

  has(path: string): boolean {
    const k = this.#index.get(path);
    return k !== undefined && this.#current[k] === 1;
  }

  /** Each current file's header id, in the files' order. */
  *values(): IterableIterator<string | null> {
    for (let k = 0; k < this.#current.length; k++) if (this.#current[k]) yield this.#ids[k];
  }
}
