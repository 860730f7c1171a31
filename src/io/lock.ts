/**
 * A cross-process lock beside a session file: `mkdir <path>.lock` succeeds for exactly one
 * caller on every file system we support, so it needs no runtime-specific locking API. The
 * holder writes who it is into the lock and keeps it fresh, so a lock left by a killed process
 * is broken at once, and one held by a long live process never is. The decisions are step
 * functions (`lockedSteps`, see `io-steps.ts`), so the synchronous compat layer takes the very
 * same lock; `withFileLock` is the async shell.
 * @module
 */

import { type FileSystem, FsError, isFsError } from "./file-system.ts";
import { append, heartbeat, list, mkdir, read, remove, rename, runSteps, sleep, stat, startHeartbeat, type Steps, stopHeartbeat, sweptFiles } from "./io-steps.ts";
import { siblingTempPath } from "./_temp-path.ts";
import { describeHolder, formatHolder, type LockHolder, parseHolder, type SeenLock, staleReason } from "./lock-holder.ts";
import { detectProcessProbe, type ProcessProbe } from "./process-probe.ts";

/** Options for `withFileLock`. */
export interface FileLockOptions {
  /** How long to keep retrying before giving up; defaults to 5000 ms. */
  timeoutMs?: number;
  /**
   * A lock whose holder cannot be asked (another host, no holder file) is taken as left by a
   * crashed process once its heartbeat is older than this; defaults to 30000 ms.
   */
  staleMs?: number;
  /** How often the holder refreshes its lock; defaults to a sixth of `staleMs`. */
  heartbeatMs?: number;
  /** Waits between attempts; inject to make tests instant. */
  sleep?: (ms: number) => Promise<void>;
  /** Current time in ms, compared with the lock's mtime and the timeout; defaults to `Date.now`. */
  clock?: () => number;
  /** Facts about processes; defaults to the running runtime's. */
  probe?: ProcessProbe;
  /**
   * Also break the stale locks of other files in the same folder and sweep their temp files: for
   * a new file, whose name no later run uses again (a killed fork's lock would stay forever).
   */
  sweepFolder?: boolean;
}

const FIRST_DELAY_MS = 10;
const MAX_DELAY_MS = 100;
/** A breaker holds `<path>.lock.break` for a few calls; one whose holder cannot be asked is taken as crashed after this. */
const BREAK_STALE_MS = 10_000;
const HOLDER_FILE = "holder.json";
const NEWLINE = new Uint8Array([0x0a]);
const encoder = new TextEncoder();
/** A temp file or folder beside a file `$1`: its own, its backups' (`.v1.bak`, `.v1.bak.2`), its lock's. */
const TEMP_NAME = /^\.(.+)\.[0-9a-f]{12}\.tmp$/;
/** What a temp file or lock folder beside a file may be of, besides the file itself. */
const TEMP_OF = /(\.lock|\.(v\d+|repair|move)\.bak(\.\d+)?)$/;

/**
 * The name of the file a leftover beside it belongs to, or undefined: `.<name>.<hex>.tmp` (a temp
 * file, or a lock folder being taken or set aside), of the file, its lock or a backup, and a
 * temp of such a temp (`writeAtomic` of a rewrite's temp file writes one while it runs).
 */
function leftoverOf(entryName: string): string | undefined {
  let name = TEMP_NAME.exec(entryName)?.[1];
  if (name === undefined) return undefined;
  name = TEMP_NAME.exec(name)?.[1] ?? name;
  return name.replace(TEMP_OF, "");
}
/** `FileLockOptions` for the step functions: no async sleep (they wait by yielding). */
export type LockStepOptions = Omit<FileLockOptions, "sleep">;

/**
 * Runs `fn` while holding `<path>.lock`, and always releases it afterwards.
 * Throws `FsError` kind "Other" when another holder keeps the lock past `timeoutMs`; its message
 * says who holds it and since when. Once it holds the lock, the temp files a killed writer left
 * beside `path` are removed (the first time in a process, and after breaking a dead holder's lock).
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
  const { sleep: wait, ...rest } = options;
  const held = await runSteps(fs, takeLock(path, rest), { sleep: wait });
  const beat = heartbeat(fs, held.holderPath, held.heartbeatMs);
  try {
    return await fn();
  } finally {
    await beat.stop();
    await runSteps(fs, release(held.lockPath, held.token));
  }
}

/** `withFileLock` as a step function: `body`'s steps run while `<path>.lock` is held. */
export function* lockedSteps<T>(path: string, body: () => Steps<T>, options: LockStepOptions = {}): Steps<T> {
  const held = yield* takeLock(path, options);
  const beat = yield* startHeartbeat(held.holderPath, held.heartbeatMs);
  try {
    return yield* body();
  } finally {
    yield* stopHeartbeat(beat);
    yield* release(held.lockPath, held.token);
  }
}

/** A lock this process took: where, its token, and how its heartbeat goes. */
export interface HeldLock {
  lockPath: string;
  token: string;
  holderPath: string;
  heartbeatMs: number;
}

/** Releases a lock `takeLock` took (unless a waiter broke it as stale meanwhile). */
export function releaseLock(held: HeldLock): Steps<void> {
  return release(held.lockPath, held.token);
}

/** Takes `<path>.lock`, waiting for a live holder and breaking a dead one's. */
export function* takeLock(path: string, options: LockStepOptions = {}): Steps<HeldLock> {
  const lockPath = `${path}.lock`;
  const probe = options.probe ?? detectProcessProbe();
  const holder: LockHolder = {
    pid: probe.pid,
    host: probe.hostname,
    ...(probe.pidSpace === undefined ? {} : { space: probe.pidSpace }),
    ...(probe.startTime === undefined ? {} : { start: probe.startTime }),
    since: 0,
    token: Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join(""),
  };
  yield* acquire(path, lockPath, holder, probe, options);
  return { lockPath, token: holder.token, holderPath: `${lockPath}/${HOLDER_FILE}`, heartbeatMs: options.heartbeatMs ?? (options.staleMs ?? 30_000) / 6 };
}

function* acquire(path: string, lockPath: string, holder: LockHolder, probe: ProcessProbe, options: LockStepOptions): Steps<void> {
  const { timeoutMs = 5000, staleMs = 30000, clock = Date.now } = options;
  const started = clock();
  let broke = false;
  for (let attempt = 0; ; attempt++) {
    holder.since = clock();
    if (yield* take(lockPath, holder)) {
      // Once per file and process (the folder may be large), and after breaking a dead holder's
      // lock. Cleaning is best effort: it must not fail the write, nor leave our lock behind.
      const swept = yield* sweptFiles();
      if (broke || !swept.has(path)) yield* bestEffort(removeOrphans(path, probe, staleMs, clock));
      swept.add(path);
      if (options.sweepFolder) yield* bestEffort(sweepFolder(path, holder, probe, staleMs, clock));
      return;
    }
    const seen = yield* inspect(lockPath, clock);
    if (seen === null) continue; // released between our try and our look
    if (staleReason(seen, probe, staleMs) !== null) {
      if (yield* breakStale(lockPath, holder, probe, staleMs, clock)) broke = true;
      continue;
    }
    const waited = clock() - started;
    if (waited >= timeoutMs) {
      throw new FsError("Other", path, `Cannot lock session file ${path}: ${lockPath} is ${describeHolder(seen, clock())}`, {
        hint: seen.holder === null
          ? `Wait and retry; a lock left by a crash is broken once it is ${Math.round(staleMs / 1000)} s old`
          : "Wait for that process to finish; if it is gone and on another host, remove the lock folder by hand",
      });
    }
    yield* sleep(Math.min(FIRST_DELAY_MS * 2 ** attempt, MAX_DELAY_MS, timeoutMs - waited));
  }
}

/**
 * One try at taking the lock. The lock is made complete under a temp name, holder file inside,
 * and renamed into place: a kill at any moment leaves either no lock or one that names its
 * holder. A rename onto a lock that is there fails while it holds its holder file, and one that
 * is there is not even tried, so a lock without one (an older version's, one being released)
 * is respected too.
 */
function* take(lockPath: string, holder: LockHolder): Steps<boolean> {
  const temp = siblingTempPath(lockPath).temp;
  yield* mkdir(temp);
  let taken = false;
  try {
    try {
      yield* append(`${temp}/${HOLDER_FILE}`, encoder.encode(formatHolder(holder)), { exclusive: true });
    } catch {
      // Best effort (a full disk): without a holder file the lock is judged by its age.
    }
    if ((yield* stat(lockPath)) !== null) return false;
    try {
      yield* rename(temp, lockPath);
      taken = true;
    } catch (error) {
      // Taken by another meanwhile (it may even be released again by now, so the answer is the
      // error's kind, not a second look); or our temp was swept as a killed taker's. Try again.
      if (!isFsError(error, "NotEmpty") && !isFsError(error, "AlreadyExists") && !isFsError(error, "NotFound")) throw error;
    }
    return taken;
  } finally {
    // Best effort: a temp lock left behind holds no lock and is swept as a killed taker's.
    if (!taken) yield* bestEffort(removeTree(temp));
  }
}

/** The lock as it is now, or `null` if it is gone. */
function* inspect(lockPath: string, clock: () => number): Steps<SeenLock | null> {
  const holderPath = `${lockPath}/${HOLDER_FILE}`;
  const dir = yield* stat(lockPath);
  const file = yield* statOrNull(holderPath);
  if (dir === null) return null;
  let holder: LockHolder | null = null;
  if (file !== null) {
    const text = (yield* readTextOrNull(holderPath)) ?? "";
    holder = parseHolder(text.trimEnd());
  }
  // The holder file's mtime is the heartbeat; a lock without one counts from the directory's.
  return { holder, ageMs: clock() - (file ?? dir).mtimeMs };
}

/**
 * Breaks a stale lock; `true` if this call did. Breakers take turns through `<path>.lock.break`
 * (itself a lock with a holder, so a breaker killed midway is seen to be gone), and each judges
 * the lock again once it holds that, so two waiters never break the same lock twice (the second
 * would remove the first's new lock). The lock is renamed aside in one step, then emptied, so a
 * crash midway leaves no half-removed lock.
 */
function* breakStale(lockPath: string, holder: LockHolder, probe: ProcessProbe, staleMs: number, clock: () => number): Steps<boolean> {
  const breaker = `${lockPath}.break`;
  if (!(yield* take(breaker, holder))) {
    const seen = yield* inspect(breaker, clock);
    if (seen !== null && staleReason(seen, probe, BREAK_STALE_MS) !== null) yield* removeAside(breaker);
    return false;
  }
  try {
    const seen = yield* inspect(lockPath, clock);
    if (seen === null || staleReason(seen, probe, staleMs) === null) return false;
    return yield* removeAside(lockPath);
  } finally {
    yield* release(breaker, holder.token);
  }
}

/** Renames a lock aside, then removes it; `false` if it was gone already. */
function* removeAside(lockPath: string): Steps<boolean> {
  const aside = siblingTempPath(lockPath).temp;
  try {
    yield* rename(lockPath, aside);
  } catch (error) {
    if (isFsError(error, "NotFound")) return false;
    throw error;
  }
  // The lock is gone once renamed; what is left aside is swept later if it cannot be removed now.
  yield* bestEffort(removeTree(aside));
  return true;
}

/**
 * Removes what a killed writer of `path` left beside it, once we hold its lock: temp files
 * `.<name>.<hex>.tmp` of the file and its backups (only a lock holder writes them, so none is
 * live now), and lock folders being taken or set aside whose holder is gone (judged like a lock:
 * a live process may be about to rename its own into place) or that hold no holder file (a
 * taker that loses its folder that way just tries again).
 */
function* removeOrphans(path: string, probe: ProcessProbe, staleMs: number, clock: () => number): Steps<void> {
  const { dir, prefix, base } = splitPath(path);
  for (const entry of yield* listOrNone(dir)) {
    if (leftoverOf(entry.name) !== base) continue;
    const at = prefix + entry.name;
    if (!entry.isDirectory) {
      yield* bestEffort(removeIfPresent(at));
      continue;
    }
    // One without a holder file was emptied by a killed release, or is a moment from getting one.
    const seen = yield* inspect(at, clock);
    if (seen !== null && (seen.holder === null || staleReason(seen, probe, staleMs) !== null)) yield* bestEffort(removeTree(at));
  }
}

/**
 * Breaks the stale locks beside `path` (not its own), and removes the leftovers of the files
 * that then have no lock: a temp file or lock folder outlives its writer only if it was killed.
 */
function* sweepFolder(path: string, holder: LockHolder, probe: ProcessProbe, staleMs: number, clock: () => number): Steps<void> {
  const { dir, prefix, base } = splitPath(path);
  const entries = yield* listOrNone(dir);
  const others = new Set<string>();
  for (const entry of entries) {
    const other = leftoverOf(entry.name) ?? (entry.isDirectory && entry.name.endsWith(".lock") ? entry.name.slice(0, -".lock".length) : undefined);
    if (other !== undefined && other !== base) others.add(prefix + other);
  }
  for (const other of others) {
    const seen = yield* inspect(`${other}.lock`, clock);
    if (seen !== null && staleReason(seen, probe, staleMs) === null) continue;
    if (seen !== null && !((yield* bestEffort(breakStale(`${other}.lock`, holder, probe, staleMs, clock))) ?? false)) continue;
    yield* removeOrphans(other, probe, staleMs, clock);
  }
}

/** `path`'s folder (for `list`), the prefix that names things in it, and the last name. */
function splitPath(path: string): { dir: string; prefix: string; base: string } {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1;
  const prefix = path.slice(0, cut);
  return { dir: cut === 0 ? "." : cut === 1 ? prefix : prefix.slice(0, -1), prefix, base: path.slice(cut) };
}


/**
 * Removes our lock; leaves it if it is not ours any more (broken by a waiter who judged it
 * stale). Renamed aside first, so a kill midway leaves no lock without its holder file (which
 * would have to be waited out), only a folder that the next run removes.
 */
function* release(lockPath: string, token: string): Steps<void> {
  const text = yield* readTextOrNull(`${lockPath}/${HOLDER_FILE}`);
  const holder = text === null ? null : parseHolder(text.trimEnd());
  if (holder !== null && holder.token !== token) return;
  yield* removeAside(lockPath);
}

/** Removes a directory and the files in it (a lock holds a holder file and perhaps a temp file). */
function* removeTree(dir: string): Steps<void> {
  for (const entry of yield* listOrNone(dir)) {
    const at = `${dir}/${entry.name}`;
    yield* (entry.isDirectory ? removeTree(at) : removeIfPresent(at));
  }
  yield* removeIfPresent(dir);
}

function* listOrNone(dir: string): Steps<{ name: string; isFile: boolean; isDirectory: boolean }[]> {
  try {
    return yield* list(dir);
  } catch {
    return [];
  }
}

function* statOrNull(path: string): Steps<Awaited<ReturnType<FileSystem["stat"]>>> {
  try {
    return yield* stat(path);
  } catch {
    return null;
  }
}

/** The steps' result, or undefined if they failed (the failure is dropped: best effort). */
function* bestEffort<T>(steps: Steps<T>): Steps<T | undefined> {
  try {
    return yield* steps;
  } catch {
    return undefined;
  }
}

function* readTextOrNull(path: string): Steps<string | null> {
  try {
    return new TextDecoder().decode(yield* read(path));
  } catch {
    return null;
  }
}

function* removeIfPresent(path: string): Steps<void> {
  try {
    yield* remove(path);
  } catch (error) {
    if (!isFsError(error, "NotFound")) throw error;
  }
}
