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
 * Bun's full collection gives the freed pages back even without the shrink: a long pass that
 * reuses them at once collects with `collectInPass` instead.
 */
export function collectGarbage(young = false, shrink = !young): void {
  const runtime = globalThis as { Bun?: { gc?: (full: boolean) => void; shrink?: () => void }; gc?: (minor?: boolean) => void };
  if (runtime.Bun?.gc) {
    runtime.Bun.gc(!young);
    if (!young && shrink) runtime.Bun.shrink?.();
  } else if (typeof runtime.gc === "function") runtime.gc(young);
}

/** `bun:jsc`'s collection without the allocator's give-back, where the runtime is Bun. */
type FullGc = () => unknown;
let fullGc: FullGc | null | undefined;

function bunFullGc(): FullGc | null {
  if (fullGc !== undefined) return fullGc;
  const runtime = globalThis as { Bun?: unknown; process?: { getBuiltinModule?: (id: string) => unknown } };
  fullGc = null;
  if (runtime.Bun !== undefined) {
    try {
      const jsc = runtime.process?.getBuiltinModule?.("bun:jsc") as { fullGC?: FullGc } | undefined;
      if (typeof jsc?.fullGC === "function") fullGc = jsc.fullGC;
    } catch {
      // An older Bun without `getBuiltinModule`: `Bun.gc(true)` below.
    }
  }
  return fullGc;
}

/**
 * A full collection that leaves the memory it frees with the allocator, for a long pass to reuse
 * at once. Bun's `Bun.gc(true)` also makes its allocator (mimalloc) hand every free page back to
 * the system, and a pass that goes on allocating then touches each of those pages afresh: a minor
 * page fault each, ~15 µs on the bench VM. `export --format markdown` of the 90 MB bench session,
 * a full collection every 8 MB read, by hand with `npx bun`: 143K page faults and 14 s with
 * `Bun.gc(true)`, 50K and 4 s with `bun:jsc`'s `fullGC` (the same collection without the
 * give-back). The memory stays resident, so a pass that must stay small gives it back now and
 * then (`collectInPass`). Elsewhere as `collectGarbage(false, false)`.
 */
export function collectKeepingPages(): void {
  const gc = bunFullGc();
  if (gc) gc();
  else collectGarbage(false, false);
}

/**
 * Resident memory (the whole process's) from which `collectInPass` gives the freed pages back.
 * On the 1.2 GB bench session, kept pages leave `show --leaf` near 230 MB at each collection
 * (peak 240), and Markdown's first pass growing past it (by hand, the binary under load:
 * 368 MB peak with pages always kept, 265 MB with them given back from here on).
 */
export const GIVE_BACK_FROM = 256 * 1024 * 1024;

/** How `collectInPass` looks and collects (tests give their own). */
export interface InPassHooks {
  resident: () => number;
  keep: () => void;
  giveBack: () => void;
}

const IN_PASS: InPassHooks = { resident: () => residentBytes(), keep: () => collectKeepingPages(), giveBack: () => collectGarbage(false, false) };

/**
 * A full collection in the middle of a long pass: the freed memory kept for the pass to reuse
 * (`collectKeepingPages`) while the process holds less than `giveBackFrom`, given back to the
 * system (`collectGarbage(false, false)`) from there on, so the pass stays bounded.
 */
export function collectInPass(giveBackFrom = GIVE_BACK_FROM, hooks: InPassHooks = IN_PASS): void {
  if (hooks.resident() >= giveBackFrom) hooks.giveBack();
  else hooks.keep();
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
