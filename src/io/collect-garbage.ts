/**
 * A hint to the engine's garbage collector, for code that reads gigabytes of short-lived
 * strings and objects and would otherwise let the heap grow far past what it holds: long
 * streamed reads (a 1 GB session parsed line by line) leave garbage behind faster than
 * JavaScriptCore collects it on its own (measured by hand with the compiled binary, `show` on the
 * 1.2 GB bench session peaked at 331 MB without collections and 281 MB with one after the light
 * pass and one every 64 MB read). Elsewhere (Node without --expose-gc, Deno) nothing happens.
 * @module
 */

/**
 * Asks the engine to collect garbage now, where it offers that (Bun; Node with --expose-gc):
 * in full after a session read (and the freed pages given back, unless `shrink` is false: Bun's
 * shrink costs far more than the collection when made often), so the next one reuses that
 * memory instead of adding to it; during a long read only a cheap hint (`young`: Bun collects
 * soon, in the background; Node with --expose-gc, the young generation). Elsewhere nothing.
 */
export function collectGarbage(young = false, shrink = !young): void {
  const runtime = globalThis as { Bun?: { gc?: (full: boolean) => void; shrink?: () => void }; gc?: (minor?: boolean) => void };
  if (runtime.Bun?.gc) {
    runtime.Bun.gc(!young);
    if (!young && shrink) runtime.Bun.shrink?.();
  } else if (typeof runtime.gc === "function") runtime.gc(young);
}

/**
 * The process's resident memory in bytes, where the runtime tells it (Bun, Node, Deno); 0 elsewhere.
 */
export function residentBytes(): number {
  const runtime = globalThis as { process?: { memoryUsage?: { rss?: () => number } }; Deno?: { memoryUsage?: () => { rss: number } } };
  const rss = runtime.process?.memoryUsage?.rss;
  if (typeof rss === "function") return rss();
  return runtime.Deno?.memoryUsage?.().rss ?? 0;
}

/** Bytes read between two collections of a long streamed read, by default. */
const EVERY = 64 * 1024 * 1024;

/**
 * Counts bytes read and collects garbage each time another `EVERY` bytes have gone by.
 *
 * @example
 * ```ts
 * const hint = new GarbageHint();
 * // for (const chunk of chunks) { hint.read(chunk.length); … }
 * ```
 */
export class GarbageHint {
  readonly #every: number;
  readonly #young: boolean;
  readonly #collect: (young?: boolean) => void;
  #since = 0;

  /**
   * `every`: bytes between two collections (fewer for a read that parses all it reads).
   * `young`: only the cheap hint of `collectGarbage(true)`, for a read whose heap holds much
   * that lives on (a full collection each time would walk all of it again).
   * `collect`: how to collect (`collectGarbage`; tests count the calls instead).
   */
  constructor(every = EVERY, young = false, collect: (young?: boolean) => void = collectGarbage) {
    this.#every = every;
    this.#young = young;
    this.#collect = collect;
  }

  read(bytes: number): void {
    this.#since += bytes;
    if (this.#since < this.#every) return;
    this.#since = 0;
    this.#collect(this.#young);
  }

  /** Starts counting again from nothing (a new file). */
  reset(): void {
    this.#since = 0;
  }
}
