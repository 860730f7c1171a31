/**
 * A hint to the engine's garbage collector, for code that reads gigabytes of short-lived
 * strings and objects and would otherwise let the heap grow far past what it holds: long
 * streamed reads (a 1 GB session parsed line by line) leave garbage behind faster than
 * JavaScriptCore collects it on its own (measured by hand with the compiled binary, `show` on the
 * 1.2 GB bench session peaked at 331 MB without collections and 281 MB with one after the light
 * pass and one every 64 MB read). Elsewhere (Node without --expose-gc, Deno) nothing happens.
 * When a long pass collects (every so many items or bytes) is counted by `GarbagePacer`
 * (garbage-pacer.ts).
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
