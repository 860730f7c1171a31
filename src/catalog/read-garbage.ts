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
 *
 * What grew with the corpus was not what the reads hold (JavaScriptCore's heap stayed at 10 to
 * 50 MB, the process at 100–115 MB after each collection) but what the lines of the giant
 * sessions leave behind between two collections: 3 to 4 MB of resident memory per MB read, the
 * process going from 115 to 160 MB in 10 to 15 MB of reading, then 20 MB past the budget before
 * the next look. The 2,400 bench sessions (207 MB) never reach the budget (117 MB); the 25,000
 * (2.5 GB, 2.2 GB of it in six giant sessions) peaked at 181–187 MB. Hence two budgets, looked at
 * every 4 MB: from `READ_KEEP_FROM` a full collection that keeps the pages it frees for the next
 * lines (no page faults to get them back), from `READ_COLLECT_FROM` one that gives them back; and
 * one given back before the records of a giant are saved (the 1.2 GB session's are 7 MB of JSON,
 * saved with the pages of its last lines still held: a 30–40 MB step at the end of its read). By
 * hand, the binary at a load of 3 to 9, cold at 25,000 sessions: 160–163 MB against main's
 * 181–205 MB, 317,000–470,000 page faults against 936,000–970,000, the same CPU (63–68 s against
 * 69–71 s at a load of 3 to 4); at 2,400, 114 MB both. Kept from 0 MB on, 2,400 sessions peaked
 * at 95 MB for more CPU; given back from 144 MB, or looked at every 2 MB, 25,000 peaked no lower
 * (166–167 MB: the last step comes within one look) and the looks every 2 MB cost 8 s of CPU.
 * @module
 */
import { collectGarbage, collectKeepingPages, residentBytes } from "../io/collect-garbage.ts";

/** Bytes read between two looks at the resident memory. */
export const READ_CHECK_EVERY = 4 * 1024 * 1024;
/**
 * Resident memory (the whole process's) from which a look collects in full, the pages freed kept
 * for the next lines: above what a corpus of small files reaches (the 2,400 bench sessions: 112–117 MB),
 * which keeps its peak and its CPU.
 */
export const READ_KEEP_FROM = 120 * 1024 * 1024;
/** Resident memory from which a look collects in full and gives the pages freed back. */
export const READ_COLLECT_FROM = 150 * 1024 * 1024;
/** Bytes of one file's read from which its pages are given back before its records are saved. */
export const LONG_READ = 64 * 1024 * 1024;

/** How a `ReadGarbage` looks and collects (tests give their own). */
export interface ReadGarbageHooks {
  resident: () => number;
  /** A full collection, the pages freed given back (not Bun's shrink, which often costs more than the collection). */
  collect: () => void;
  /** A full collection, the pages freed kept for the reads to reuse. */
  keep: () => void;
}

const HOOKS: ReadGarbageHooks = { resident: residentBytes, collect: () => collectGarbage(false, false), keep: () => collectKeepingPages() };

/**
 * Counts the bytes of one refresh's reads (of every file: small ones add up too) and every
 * `READ_CHECK_EVERY` of them collects when the process holds `READ_KEEP_FROM` or more, keeping
 * the pages freed, and gives them back from `READ_COLLECT_FROM` on. When a collection that gives
 * back leaves it above that (what is live is that large), the next is made only once it has
 * grown by another `READ_CHECK_EVERY` × 2 beyond what was left: no such collection after every
 * look for a live heap that no collection makes smaller.
 *
 * @example
 * ```ts
 * const garbage = new ReadGarbage();
 * // for (const chunk of chunks) { garbage.read(chunk.length); … }
 * garbage.readDone(bytesRead); // before the records of a read are saved
 * ```
 */
export class ReadGarbage {
  readonly #hooks: ReadGarbageHooks;
  #since = 0;
  #from = READ_COLLECT_FROM;
  /** Collections made that gave pages back (tests, and figures in the notes above). */
  collections = 0;
  /** Collections made that kept them. */
  kept = 0;

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

  /** Collects now if the process holds a budget or more. */
  look(): void {
    const resident = this.#hooks.resident();
    if (resident < READ_KEEP_FROM) return;
    if (resident < this.#from) {
      this.#hooks.keep();
      this.kept++;
      return;
    }
    this.#giveBack();
  }

  /**
   * Before the records of a read of `bytes` are saved: the pages given back after a long one
   * (`LONG_READ`), whatever the process holds, else a look after one of `READ_CHECK_EVERY` or
   * more. Under the budgets too: each giant's read left the process a few megabytes larger for
   * the rest of the run (a cold `list --all` of the 25,000 sessions climbed 90, 99, 107, 111 MB
   * after its giants, to a peak of 122-123), and one collection after each held the peak at
   * 115 MB for 0.2 s more (3.7 → 3.9 s; the binary by hand, 2 runs each).
   */
  readDone(bytes: number): void {
    if (bytes >= LONG_READ) this.#giveBack();
    else if (bytes >= READ_CHECK_EVERY) this.look();
  }

  /**
   * Once the records of a long read (`LONG_READ` or more) were saved and let go: what the save
   * made of them is garbage, and so are they. The 1.2 GB session's message texts (23 million
   * characters) left their JSON, its bytes and the state itself, 160 MB, for the next read.
   */
  savedLong(): void {
    this.#giveBack();
  }

  #giveBack(): void {
    this.#hooks.collect();
    this.collections++;
    this.#from = Math.max(READ_COLLECT_FROM, this.#hooks.resident() + 2 * READ_CHECK_EVERY);
  }
}
