/**
 * Garbage collection paced by the sessions a catalog walk hands on. A walk of 25,000 sessions
 * loads every record a slice at a time and drops it, and Bun's collector let that garbage (and
 * what listing and stamping the files left before the first record) pile up: `files --all`
 * peaked at 143 MB over the 25,000-session corpus, 111 MB with a collection at the first
 * session and every 1,000th after (measured with the compiled binary; 0.3 s more CPU).
 * @module
 */
import { collectGarbage } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";

/** Sessions between two collections of a walk. */
export const WALK_COLLECT_EVERY = 1000;

/**
 * A function to call once per session a walk hands on: it collects garbage at the first and at
 * every `every`th after (`collect`: where the runtime offers that; elsewhere it does nothing).
 */
export function walkCollector(every = WALK_COLLECT_EVERY, collect: () => void = collectGarbage): () => void {
  const pacer = new GarbagePacer({ everyItems: every, atFirst: true, collect: () => collect() });
  return () => pacer.item();
}
