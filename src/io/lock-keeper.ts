/**
 * Locks kept between calls. A synchronous caller that appends many lines in a row (pi's
 * `appendMessage` in a loop) takes a session file's lock once for the whole burst instead of once
 * per line: the writer hands the lock to the keeper after its line and takes it back for the next.
 * The keeper gives every lock back when the burst ends (its `schedule`, a microtask by default),
 * when its shell says (at process exit), and on the next `take` once it was held for `KEEP_MS` or its
 * heartbeat interval (then the next line takes the lock anew: waiters get a turn, and the lock's
 * heartbeat, its holder file's time, is never older than that). Each line still does its own
 * check under the lock, so nothing another writer appended is missed. A kept lock keeps its file
 * open: the shell's `io` answers for that open file at once (a synchronous driver opened it),
 * so a line of a burst needs no step function (see `SessionWriter.appendKept`).
 * @module
 */

import { type AppendHandleRef, closeHandle, type Steps } from "./io-steps.ts";
import { type HeldLock, releaseLock } from "./lock.ts";

/** At most this long a kept lock is used again without being taken anew. */
export const KEEP_MS = 1000;

/** A lock held by this process on a file (the file's real path), when it was taken, and the file opened for appends. */
export interface KeptLock {
  real: string;
  held: HeldLock;
  since: number;
  handle?: AppendHandleRef;
}

/** Gives a kept lock back: closes its handle, then releases the lock. */
export function* releaseKept(kept: KeptLock): Steps<void> {
  try {
    if (kept.handle !== undefined) yield* closeHandle(kept.handle);
  } finally {
    yield* releaseLock(kept.held);
  }
}

/** The open file of a kept lock, answered at once by the driver that opened it. */
export interface KeptFileIo {
  /** Whether the open file is `size` bytes long and still the one its path names (`AppendHandle.endsAt`). */
  endsAt(handle: AppendHandleRef, size: number): boolean;
  /** Appends `text` in one write call; its byte length (`AppendHandle.append`). */
  append(handle: AppendHandleRef, text: string): number;
}

/** What the keeper needs from its shell. */
export interface KeeperHooks {
  /** Gives a kept lock back now (`releaseKept`); best effort, never throws. */
  release(kept: KeptLock): void;
  /** Runs `fn` once the current burst of synchronous calls is over; defaults to `queueMicrotask`. */
  schedule?(fn: () => void): void;
  /** Milliseconds, for the age of a kept lock; defaults to `performance.now`. */
  now?(): number;
  /** How a kept lock's open file is used between steps; without it, every line goes by the steps. */
  io?: KeptFileIo;
}

/**
 * @example A burst of two takes the lock once
 * ```ts
 * import assert from "node:assert/strict";
 * import { LockKeeper } from "./lock-keeper.ts";
 *
 * const released: string[] = [];
 * const keeper = new LockKeeper({ release: (kept) => void released.push(kept.held.lockPath), schedule: () => {} });
 * const held = { lockPath: "/s.jsonl.lock", token: "t", holderPath: "/s.jsonl.lock/holder.json", heartbeatMs: 5000 };
 * assert.equal(keeper.take("/s.jsonl"), undefined);
 * keeper.keep("/s.jsonl", keeper.taken("/s.jsonl", held));
 * assert.equal(keeper.take("/s.jsonl")?.held, held);
 * keeper.releaseAll();
 * assert.deepEqual(released, ["/s.jsonl.lock"]);
 * ```
 */
export class LockKeeper {
  #hooks: KeeperHooks;
  /** Kept locks by the file's real path. */
  #kept = new Map<string, KeptLock>();
  /** The real path of each name a writer used for a kept lock's file (a link's path, or the file's own). */
  #names = new Map<string, string>();
  #scheduled = false;

  constructor(hooks: KeeperHooks) {
    this.#hooks = hooks;
  }

  /** The shell's answers for kept locks' open files (`KeeperHooks.io`). */
  get io(): KeptFileIo | undefined {
    return this.#hooks.io;
  }

  /** A new `KeptLock` for a lock just taken on `real`. */
  taken(real: string, held: HeldLock): KeptLock {
    return { real, held, since: this.#now() };
  }

  /**
   * The lock kept for the file named `path` (a name it was kept under, or its real path), handed
   * over to the caller (who gives it back with `keep` or releases it); undefined if none is kept
   * or it was kept too long (it is released then).
   */
  take(path: string): KeptLock | undefined {
    const kept = this.held(path);
    if (kept !== undefined) this.#kept.delete(kept.real);
    return kept;
  }

  /**
   * The lock kept for the file named `path`, left with the keeper (for a line that goes out under
   * it now); undefined if none is kept or it was kept too long (it is released then).
   */
  held(path: string): KeptLock | undefined {
    const real = this.#names.get(path) ?? path;
    const kept = this.#kept.get(real);
    if (kept === undefined) return undefined;
    if (this.#now() - kept.since < Math.min(KEEP_MS, kept.held.heartbeatMs)) return kept;
    this.#kept.delete(real);
    this.#hooks.release(kept);
    return undefined;
  }

  /** Keeps `kept` for the next call on `path`, until the burst ends. */
  keep(path: string, kept: KeptLock): void {
    this.#names.set(path, kept.real);
    this.#kept.set(kept.real, kept);
    if (!this.#scheduled) {
      this.#scheduled = true;
      (this.#hooks.schedule ?? queueMicrotask)(() => {
        this.#scheduled = false;
        this.releaseAll();
      });
    }
  }

  /** Releases a lock kept on the file `real` (under any name): before a rewrite takes that lock itself. */
  drop(real: string): void {
    const kept = this.#kept.get(real);
    if (kept === undefined) return;
    this.#kept.delete(real);
    this.#hooks.release(kept);
  }

  /** Releases every kept lock. */
  releaseAll(): void {
    const all = [...this.#kept.values()];
    this.#kept.clear();
    this.#names.clear();
    for (const kept of all) this.#hooks.release(kept);
  }

  #now(): number {
    return this.#hooks.now ? this.#hooks.now() : performance.now();
  }
}
