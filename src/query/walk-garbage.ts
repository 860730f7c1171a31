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

/**
 * Characters of message texts a walk of the stored texts (`list --search`, the picker's scan)
 * goes through between two collections, which give the pages freed back: each session's texts
 * come from the catalog as text or inflated bytes, are decoded and parsed, tested and let go. A
 * warm `list --all --search` of the 25,000 sessions (80 million characters) peaked at 321–362 MB
 * without them, 322–330 MB with collections that kept the pages, 255–283 MB with these (0.2 to
 * 0.4 s more).
 */
export const TEXTS_COLLECT_EVERY = 16_000_000;

/** A function to call with each session's texts as a walk of them hands them on: collects every `TEXTS_COLLECT_EVERY` characters. */
export function textsCollector(collect: () => void = collectGarbage): (text: string) => void {
  const pacer = new GarbagePacer({ everyAmount: TEXTS_COLLECT_EVERY, collect: () => collect() });
  return (text) => pacer.item(text.length);
}
