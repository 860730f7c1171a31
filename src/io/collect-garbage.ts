/**
 * A hint to the engine's garbage collector, for code that reads gigabytes of short-lived
 * strings and objects and would otherwise let the heap grow far past what it holds.
 * @module
 */

/**
 * Asks the engine to collect garbage now, where it offers that (Bun; Node with --expose-gc):
 * in full after a session read (and the freed pages given back), so the next one reuses that
 * memory instead of adding to it; during a long read only a cheap hint (`young`: Bun collects
 * soon, in the background; Node with --expose-gc, the young generation). Elsewhere nothing.
 */
export function collectGarbage(young = false): void {
  const runtime = globalThis as { Bun?: { gc?: (full: boolean) => void; shrink?: () => void }; gc?: (minor?: boolean) => void };
  if (runtime.Bun?.gc) {
    runtime.Bun.gc(!young);
    if (!young) runtime.Bun.shrink?.();
  } else if (typeof runtime.gc === "function") runtime.gc(young);
}
