/**
 * A cross-process lock beside a session file: `mkdir <path>.lock` succeeds for exactly one
 * caller on every file system we support, so it needs no runtime-specific locking API.
 * The decisions are step functions (`lockedSteps`), so the synchronous compat layer takes the
 * very same lock; `withFileLock` is the async shell.
 * @module
 */

import { type FileSystem, FsError, isFsError } from "./file-system.ts";
import { mkdir, remove, runSteps, sleep, stat, type Steps } from "./io-steps.ts";

/** Options for `withFileLock`. */
export interface FileLockOptions {
  /** How long to keep retrying before giving up; defaults to 5000 ms. */
  timeoutMs?: number;
  /** A lock directory older than this is taken as left by a crashed process; defaults to 30000 ms. */
  staleMs?: number;
  /** Waits between attempts; inject to make tests instant. */
  sleep?: (ms: number) => Promise<void>;
  /** Current time in ms, compared with the lock's mtime and the timeout; defaults to `Date.now`. */
  clock?: () => number;
}

const FIRST_DELAY_MS = 10;
const MAX_DELAY_MS = 100;

/**
 * Runs `fn` while holding `<path>.lock`, and always releases it afterwards.
 * Throws `FsError` kind "Other" when another holder keeps the lock past `timeoutMs`.
 * `fn` should finish well within `staleMs`, or a waiting process may break the lock.
 *
 * @example Appending under the lock
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryFileSystem, withFileLock } from "./mod.ts";
 *
 * const fs = new MemoryFileSystem();
 * await withFileLock(fs, "/s.jsonl", () => fs.append("/s.jsonl", new TextEncoder().encode("{}\n")));
 * assert.equal((await fs.stat("/s.jsonl"))?.size, 3);
 * assert.equal(await fs.stat("/s.jsonl.lock"), null);
 * ```
 */
export async function withFileLock<T>(
  fs: FileSystem,
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  await runSteps(fs, acquire(path, lockPath, options), { sleep: options.sleep });
  try {
    return await fn();
  } finally {
    await runSteps(fs, removeIfPresent(lockPath));
  }
}

/** `withFileLock` as a step function: `body`'s steps run while `<path>.lock` is held. */
export function* lockedSteps<T>(path: string, body: () => Steps<T>, options: LockStepOptions = {}): Steps<T> {
  const lockPath = `${path}.lock`;
  yield* acquire(path, lockPath, options);
  try {
    return yield* body();
  } finally {
    yield* removeIfPresent(lockPath);
  }
}

/** `FileLockOptions` without the async sleep (a step function waits by yielding). */
export type LockStepOptions = Omit<FileLockOptions, "sleep">;

function* acquire(path: string, lockPath: string, options: LockStepOptions): Steps<void> {
  const { timeoutMs = 5000, staleMs = 30000, clock = Date.now } = options;
  const started = clock();
  for (let attempt = 0; ; attempt++) {
    try {
      yield* mkdir(lockPath);
      return;
    } catch (error) {
      if (!isFsError(error, "AlreadyExists")) throw error;
    }
    const held = yield* stat(lockPath);
    if (held === null) continue; // released between our mkdir and stat
    if (clock() - held.mtimeMs > staleMs) {
      // Left by a crashed holder. If two waiters see the same stale lock, the slower one can
      // remove the lock the faster one just took; a 30 s stale window makes that rare enough.
      yield* removeIfPresent(lockPath);
      continue;
    }
    const waited = clock() - started;
    if (waited >= timeoutMs) {
      throw new FsError("Other", path, `Cannot lock session file ${path}: another process holds ${lockPath}`);
    }
    yield* sleep(Math.min(FIRST_DELAY_MS * 2 ** attempt, MAX_DELAY_MS, timeoutMs - waited));
  }
}

function* removeIfPresent(lockPath: string): Steps<void> {
  try {
    yield* remove(lockPath);
  } catch (error) {
    if (!isFsError(error, "NotFound")) throw error;
  }
}
