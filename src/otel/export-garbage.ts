/**
 * Garbage collection paced by what an `otel` run reads and hands out, on the main thread and in
 * each worker. A session file read line by line leaves its bytes and strings behind, and joining
 * its chunks into requests leaves copies; Bun's collector let that pile up (the 1.2 GB session
 * after a 200 MB one peaked at 570 MB, where a forced full collection brought the heap from 274
 * to 125 MB). So: a cheap hint every `READ_EVERY` bytes of a long read and every `SENT_EVERY`
 * bytes of requests handed out, a full collection after a session file of `BIG_SESSION` bytes or
 * more. Small sessions leave garbage too, which Bun's collector let grow with their number (the
 * 25,000 sessions of the scale corpus without its giants peaked at 230-290 MB, the live heap
 * staying near 35 MB): a full collection every `SESSIONS_EVERY` sessions a thread read, the pages
 * not given back (Bun's shrink that often cost 3 to 6 times the run's CPU), held them at 145-150
 * MB (figures: README, issue 22's walkers). Below `PACE_FROM_RSS` of resident memory that pacing is
 * skipped: the bench's 2,400 sessions stay under it, and their four collections cost more CPU
 * than the megabytes they saved were worth. Reading the headers of a large run and ordering its
 * sessions leaves garbage too, which stayed in the process through its first sessions (its
 * giants, at the scale corpus): a full collection once the plan is made, from `PLANNED_FROM`
 * files (`otel --dry-run --all` at 25,000 sessions, by hand under load: peak 160, 156, 169 MB
 * without it, 152, 154, 156 with it and with the worker's after its share of the headers).
 * @module
 */
import { collectGarbage, residentBytes } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";

/** Bytes of a session file read between two hints during its read. */
export const READ_EVERY = 64 * 1024 * 1024;
/** A session file this large or larger is followed by a full collection. */
export const BIG_SESSION = 32 * 1024 * 1024;
/** Bytes of requests handed out between two hints. */
export const SENT_EVERY = 64 * 1024 * 1024;
/** Sessions a thread reads between two full collections (without shrinking). */
export const SESSIONS_EVERY = 500;
/** Resident memory (the whole process's) from which the collections every `SESSIONS_EVERY` sessions are made. */
export const PACE_FROM_RSS = 128 * 1024 * 1024;

/** Files whose headers a thread read, from which it collects in full once they are planned. */
export const PLANNED_FROM = 4096;

/** How a run's collections are made: `collectGarbage` (tests count the calls instead). */
export type Collect = (young?: boolean, shrink?: boolean) => void;

/**
 * The collections of one run (or one worker): tell it what was read and handed out, it collects
 * when enough has gone by.
 *
 * @example
 * ```ts
 * const garbage = new ExportGarbage();
 * garbage.read(chunk.length); // during a file's read
 * garbage.session(size);      // once the file is done with
 * garbage.sent(body.length);  // a request handed out
 * ```
 */
export class ExportGarbage {
  readonly #collect: Collect;
  readonly #resident: () => number;
  readonly #reading: GarbagePacer;
  readonly #sending: GarbagePacer;
  /** Sessions done with (counted again from a big one's full collection). */
  readonly #sessions: GarbagePacer;
  /** Bytes of the current file read so far. */
  #file = 0;

  /** `resident`: the process's resident bytes (`residentBytes`; tests give their own). */
  constructor(collect: Collect = collectGarbage, resident: () => number = residentBytes) {
    this.#collect = collect;
    this.#resident = resident;
    this.#reading = new GarbagePacer({ everyAmount: READ_EVERY, amountYoung: true, collect });
    this.#sending = new GarbagePacer({ everyAmount: SENT_EVERY, amountYoung: true, collect });
    const paced = () => {
      if (this.#resident() >= PACE_FROM_RSS) collect(false, false);
    };
    this.#sessions = new GarbagePacer({ everyItems: SESSIONS_EVERY, collect: paced });
  }

  /** Bytes of the current file read: a cheap hint each `READ_EVERY`. */
  read(bytes: number): void {
    this.#file += bytes;
    this.#reading.add(bytes);
  }

  /**
   * A session file of `bytes` done with (by default the bytes `read` counted since the last one):
   * a full collection after a big one, else one without shrinking every `SESSIONS_EVERY`, when
   * the process holds `PACE_FROM_RSS` or more.
   */
  session(bytes = this.#file): void {
    this.#reading.reset();
    this.#file = 0;
    if (bytes >= BIG_SESSION) {
      this.#sessions.reset();
      this.#collect();
    } else {
      this.#sessions.item();
    }
  }

  /**
   * The headers of `files` read and the sessions ordered (on the main thread), or a share of the
   * headers read (a worker): a full collection, pages given back, from `PLANNED_FROM` files.
   */
  planned(files: number): void {
    if (files >= PLANNED_FROM) this.#collect();
  }

  /** A request of `bytes` handed out: a cheap hint each `SENT_EVERY`. */
  sent(bytes: number): void {
    this.#sending.add(bytes);
  }
}
