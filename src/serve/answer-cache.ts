/**
 * The answers a server keeps until the next session change: computed once per distinct request
 * (the promise is kept, so requests arriving meanwhile share it), the least recently used
 * dropped beyond a count and beyond a total size, so that big answers (a 90 MB session's tree,
 * pages of long tool outputs) cannot add up.
 * @module
 */

export interface AnswerCacheOptions {
  /** Answers kept at most (default 256). */
  count?: number;
  /** Their total weight at most, the bytes of their bodies (default 24 MB). */
  weight?: number;
}

interface Kept {
  answer: Promise<unknown>;
  weight: number;
}

/**
 * @example
 * ```ts
 * const cache = new AnswerCache({ weight: 1_000 });
 * await cache.get("a", async () => "x".repeat(600), (s) => s.length); // computed
 * await cache.get("a", async () => "never"); // the same answer
 * ```
 */
export class AnswerCache {
  readonly #count: number;
  readonly #weight: number;
  readonly #kept = new Map<string, Kept>();
  #total = 0;

  constructor(options: AnswerCacheOptions = {}) {
    this.#count = options.count ?? 256;
    this.#weight = options.weight ?? 24 * 1024 * 1024;
  }

  /** The answer for `key`, computed now if not kept; `weigh` gives its weight once known (default 0). */
  get<T>(key: string, compute: () => Promise<T>, weigh?: (value: T) => number): Promise<T> {
    const kept = this.#kept.get(key);
    if (kept) {
      // Used again: the newest now.
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept.answer as Promise<T>;
    }
    const answer = compute();
    const entry: Kept = { answer, weight: 0 };
    this.#kept.set(key, entry);
    this.#trim();
    answer.then(
      (value) => {
        if (this.#kept.get(key) !== entry) return;
        entry.weight = weigh ? weigh(value) : 0;
        this.#total += entry.weight;
        this.#trim();
      },
      () => {
        if (this.#kept.get(key) === entry) this.#kept.delete(key);
      },
    );
    return answer;
  }

  /** Forgets every answer. */
  clear(): void {
    this.#kept.clear();
    this.#total = 0;
  }

  get size(): number {
    return this.#kept.size;
  }

  /** The total weight of the answers kept. */
  get weight(): number {
    return this.#total;
  }

  #trim(): void {
    for (const [key, kept] of this.#kept) {
      if (this.#kept.size <= this.#count && this.#total <= this.#weight) break;
      this.#kept.delete(key);
      this.#total -= kept.weight;
    }
  }
}
