/**
 * Garbage collection paced by the bytes a refresh reads, held to a budget of resident memory.
 * Parsing a long file's lines for the digests leaves garbage that Bun let pile up: a cold
 * `index` of the 1.2 GB session alone grew all through its read (115 MB after 8 s, 250 MB at its
 * end) and peaked at 310 MB saving its records, where a full collection at each save held it
 * near 100 MB. A full collection every 32 MB read held the peak at 190 MB, but at a third more
 * CPU; one every 64 MB, 225 MB at 6% more. Gated by resident memory instead, the
 * collections are made only where the memory is, and none for a corpus of small files that stays
 * under the budget. The 25,000-session scale corpus (its giants: 1.2 GB, 5 × 200 MB), cold, by
 * hand at a load of 1 to 4: 389 MB, 71 s, 68 s of CPU before (and before `BATCH_TEXT`); 188 MB, 105 s, 102 s of CPU from 160 MB
 * (the 1.2 GB session alone: 181 MB); 216 MB, 90 s, 86 s of CPU from 192 MB. With each line parsed
 * once, the documents' statements prepared once and documents held for shorter (refresh-file.ts,
 * refresh-run.ts), at a load of 10 to 13: main (192 MB) 222 MB, 107 s of CPU, 875,000 page faults;
 * from 160 MB 184 MB, 101 s of CPU (51 collections, 952,000 faults); from 150 MB 172 MB but
 * 117 s of CPU (115 collections, 1.45 million faults: a collection gives pages back that the next
 * lines fault in again).
 * @module
 */
import { collectGarbage, residentBytes } from "../io/collect-garbage.ts";

/** Bytes read between two looks at the resident memory. */
export const READ_CHECK_EVERY = 8 * 1024 * 1024;
/** Resident memory (the whole process's) from which a look collects in full: the lowest measured without more CPU than before. */
export const READ_COLLECT_FROM = 160 * 1024 * 1024;

/** How a `ReadGarbage` looks and collects (tests give their own). */
export interface ReadGarbageHooks {
  resident: () => number;
  /** A full collection; pages not given back (Bun's shrink that often costs more than the collection). */
  collect: () => void;
}

const HOOKS: ReadGarbageHooks = { resident: residentBytes, collect: () => collectGarbage(false, false) };

/**
 * Counts the bytes of one refresh's reads (of every file: small ones add up too) and every
 * `READ_CHECK_EVERY` of them collects when the process holds `READ_COLLECT_FROM` or more. When a
 * collection leaves it above that (what is live is that large), the next is made only once it
 * has grown by another `READ_CHECK_EVERY` × 2 beyond what was left: no collection after every
 * look for a live heap that no collection makes smaller.
 *
 * @example
 * ```ts
 * const garbage = new ReadGarbage();
 * // for (const chunk of chunks) { garbage.read(chunk.length); … }
 * garbage.look(); // before the records of a long read are saved
 * ```
 */
export class ReadGarbage {
  readonly #hooks: ReadGarbageHooks;
  #since = 0;
  #from = READ_COLLECT_FROM;
  /** Collections made (tests, and figures in the notes above). */
  collections = 0;

  constructor(hooks: ReadGarbageHooks = HOOKS) {
    this.#hooks = hooks;
  }

  /** Counts `bytes` read; looks once another `READ_CHECK_EVERY` has gone by. */
  read(bytes: number): void {
    this.#since += bytes;
    if (this.#since < READ_CHECK_EVERY) return;
    this.#since = 0;
    this.look();
  }

  /** Collects now if the process holds the budget or more. */
  look(): void {
    if (this.#hooks.resident() < this.#from) return;
    this.#hooks.collect();
    this.collections++;
    this.#from = Math.max(READ_COLLECT_FROM, this.#hooks.resident() + 2 * READ_CHECK_EVERY);
  }
}
