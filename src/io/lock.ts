/**
 * A cross-process lock beside a session file: `mkdir <path>.lock` succeeds for exactly one
 * caller on every file system we support, so it needs no runtime-specific locking API.
 * @module
 */

import { type FileSystem, FsError, isFsError } from "./file-system.ts";

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
  await acquire(fs, path, lockPath, options);
  try {
    return await fn();
  } finally {
    await removeIfPresent(fs, lockPath);
  }
}

async function acquire(fs: FileSystem, path: string, lockPath: string, options: FileLockOptions): Promise<void> {
  const { timeoutMs = 5000, staleMs = 30000, sleep = defaultSleep, clock = Date.now } = options;
  const started = clock();
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.mkdir(lockPath);
      return;
    } catch (error) {
      if (!isFsError(error, "AlreadyExists")) throw error;
    }
    const held = await fs.stat(lockPath);
    if (held === null) continue; // released between our mkdir and stat
    if (clock() - held.mtimeMs > staleMs) {
      // Left by a crashed holder. If two waiters see the same stale lock, the slower one can
      // remove the lock the faster one just took; a 30 s stale window makes that rare enough.
      await removeIfPresent(fs, lockPath);
      continue;
    }
    const waited = clock() - started;
    if (waited >= timeoutMs) {
      throw new FsError("Other", path, `Cannot lock session file ${path}: another process holds ${lockPath}`);
    }
    await sleep(Math.min(FIRST_DELAY_MS * 2 ** attempt, MAX_DELAY_MS, timeoutMs - waited));
  }
}

async function removeIfPresent(fs: FileSystem, lockPath: string): Promise<void> {
  try {
    await fs.remove(lockPath);
  } catch (error) {
    if (!isFsError(error, "NotFound")) throw error;
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
