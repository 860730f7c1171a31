/**
 * The session indexes a long-running surface keeps (`serve`): a few files' line indexes, each
 * brought up to date with one `stat` per use (kept, extended by what was appended, or built
 * again), the least recently used dropped beyond a count or a total of entries.
 * @module
 */
import type { FileSystem } from "../io/file-system.ts";
import { SessionIndex } from "./session-index.ts";

export interface SessionIndexesOptions {
  /** Files indexed at most (default 16). */
  files?: number;
  /** Entries over all indexes at most (default 500,000: tens of megabytes). */
  entries?: number;
  /** Called after an index is built from nothing (a whole file read): a server collects garbage then. */
  built?: () => void;
}

/**
 * @example
 * ```ts
 * // const indexes = new SessionIndexes();
 * // const index = await indexes.get(fs, "/s/a.jsonl"); // null when the file is gone
 * ```
 */
export class SessionIndexes {
  readonly #files: number;
  readonly #entries: number;
  readonly #onBuilt: () => void;
  /** Per path, the latest index (or the work bringing it up to date); in use order, oldest first. */
  readonly #byPath = new Map<string, Promise<SessionIndex | null>>();
  /** Entries of each index held, once known. */
  readonly #counts = new Map<string, number>();
  /** Indexes built from nothing, for tests and metrics. */
  builds = 0;

  constructor(options: SessionIndexesOptions = {}) {
    this.#files = options.files ?? 16;
    this.#entries = options.entries ?? 500_000;
    this.#onBuilt = options.built ?? (() => {});
  }

  /**
   * The index of `path` as the file is now; null when it is not a file. Uses of one path take
   * turns. A quick index does when `exact` is false; an exact one is kept once built.
   */
  get(fs: FileSystem, path: string, exact = true): Promise<SessionIndex | null> {
    const previous = this.#byPath.get(path) ?? Promise.resolve(null);
    const next: Promise<SessionIndex | null> = previous.catch(() => null).then(async (kept) => {
      const stat = await fs.stat(path);
      const index = kept && (kept.exact || !exact) ? kept : null;
      let fresh: SessionIndex | null = null;
      if (stat !== null && stat.isFile) {
        fresh = index ? await index.refreshed(fs, stat) : await SessionIndex.build(fs, path, stat, exact);
        if (fresh !== index) {
          this.builds++;
          this.#onBuilt();
        }
      }
      // Still the newest use of this path: its size counts now, and older paths may go.
      if (this.#byPath.get(path) === next) {
        this.#counts.set(path, fresh?.count ?? 0);
        this.#trim(path);
      }
      return fresh;
    });
    this.#byPath.delete(path);
    this.#byPath.set(path, next);
    next.catch(() => {
      if (this.#byPath.get(path) === next) this.#forget(path);
    });
    return next;
  }

  /** Forgets every index. */
  clear(): void {
    this.#byPath.clear();
    this.#counts.clear();
  }

  #forget(path: string): void {
    this.#byPath.delete(path);
    this.#counts.delete(path);
  }

  /** Drops the least recently used indexes beyond the bounds, never `keep` (the one just used). */
  #trim(keep: string): void {
    let total = 0;
    for (const count of this.#counts.values()) total += count;
    for (const path of [...this.#byPath.keys()]) {
      if (this.#byPath.size <= this.#files && total <= this.#entries) break;
      if (path === keep) continue;
      total -= this.#counts.get(path) ?? 0;
      this.#forget(path);
    }
  }
}
