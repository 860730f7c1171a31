/**
 * A cross-process lock beside a session file: `mkdir <path>.lock` succeeds for exactly one
 * caller on every file system we support, so it needs no runtime-specific locking API. The
 * holder writes who it is into the lock and keeps it fresh, so a lock left by a killed process
 * is broken at once, and one held by a long live process never is.
 * @module
 */

import { type FileSystem, FsError, isFsError } from "./file-system.ts";
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
const LEFTOVER = /^\.(.+?)(\.lock|\.v\d+\.bak(\.\d+)?)?\.[0-9a-f]{12}\.tmp$/;
/** The files whose killed writers' leftovers this process has looked for, per file system. */
const sweptBy = new WeakMap<FileSystem, Set<string>>();

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
  await acquire(fs, path, lockPath, holder, probe, options);
  const heartbeat = startHeartbeat(fs, `${lockPath}/${HOLDER_FILE}`, options.heartbeatMs ?? (options.staleMs ?? 30_000) / 6);
  try {
    return await fn();
  } finally {
    await heartbeat.stop();
    await release(fs, lockPath, holder.token);
  }
}

async function acquire(fs: FileSystem, path: string, lockPath: string, holder: LockHolder, probe: ProcessProbe, options: FileLockOptions): Promise<void> {
  const { timeoutMs = 5000, staleMs = 30000, sleep = defaultSleep, clock = Date.now } = options;
  const started = clock();
  let broke = false;
  for (let attempt = 0; ; attempt++) {
    holder.since = clock();
    if (await take(fs, lockPath, holder)) {
      // Once per file and process (the folder may be large), and after breaking a dead holder's
      // lock. Cleaning is best effort: it must not fail the write, nor leave our lock behind.
      const swept = sweptBy.get(fs) ?? sweptBy.set(fs, new Set()).get(fs)!;
      if (broke || !swept.has(path)) await removeOrphans(fs, path, probe, staleMs, clock).catch(() => {});
      swept.add(path);
      if (options.sweepFolder) await sweepFolder(fs, path, holder, probe, staleMs, clock).catch(() => {});
      return;
    }
    const seen = await inspect(fs, lockPath, clock);
    if (seen === null) continue; // released between our try and our look
    if (staleReason(seen, probe, staleMs) !== null) {
      if (await breakStale(fs, lockPath, holder, probe, staleMs, clock)) broke = true;
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
    await sleep(Math.min(FIRST_DELAY_MS * 2 ** attempt, MAX_DELAY_MS, timeoutMs - waited));
  }
}

/**
 * One try at taking the lock. The lock is made complete under a temp name, holder file inside,
 * and renamed into place: a kill at any moment leaves either no lock or one that names its
 * holder. A rename onto a lock that is there fails while it holds its holder file, and one that
 * is there is not even tried, so a lock without one (an older version's, one being released)
 * is respected too.
 */
async function take(fs: FileSystem, lockPath: string, holder: LockHolder): Promise<boolean> {
  const temp = siblingTempPath(lockPath).temp;
  await fs.mkdir(temp);
  let taken = false;
  try {
    await fs.append(`${temp}/${HOLDER_FILE}`, encoder.encode(formatHolder(holder)), { exclusive: true }).catch(() => {
      // Best effort (a full disk): without a holder file the lock is judged by its age.
    });
    if ((await fs.stat(lockPath)) !== null) return false;
    try {
      await fs.rename(temp, lockPath);
      taken = true;
    } catch (error) {
      // Taken by another meanwhile (it may even be released again by now, so the answer is the
      // error's kind, not a second look); or our temp was swept as a killed taker's. Try again.
      if (!isFsError(error, "NotEmpty") && !isFsError(error, "AlreadyExists") && !isFsError(error, "NotFound")) throw error;
    }
    return taken;
  } finally {
    // Best effort: a temp lock left behind holds no lock and is swept as a killed taker's.
    if (!taken) await removeTree(fs, temp).catch(() => {});
  }
}

/** The lock as it is now, or `null` if it is gone. */
async function inspect(fs: FileSystem, lockPath: string, clock: () => number): Promise<SeenLock | null> {
  const holderPath = `${lockPath}/${HOLDER_FILE}`;
  const [dir, file] = await Promise.all([fs.stat(lockPath), fs.stat(holderPath).catch(() => null)]);
  if (dir === null) return null;
  let holder: LockHolder | null = null;
  if (file !== null) {
    const text = await readText(fs, holderPath).catch(() => "");
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
async function breakStale(fs: FileSystem, lockPath: string, holder: LockHolder, probe: ProcessProbe, staleMs: number, clock: () => number): Promise<boolean> {
  const breaker = `${lockPath}.break`;
  if (!(await take(fs, breaker, holder))) {
    const seen = await inspect(fs, breaker, clock);
    if (seen !== null && staleReason(seen, probe, BREAK_STALE_MS) !== null) await removeAside(fs, breaker);
    return false;
  }
  try {
    const seen = await inspect(fs, lockPath, clock);
    if (seen === null || staleReason(seen, probe, staleMs) === null) return false;
    return await removeAside(fs, lockPath);
  } finally {
    await release(fs, breaker, holder.token);
  }
}

/** Renames a lock aside, then removes it; `false` if it was gone already. */
async function removeAside(fs: FileSystem, lockPath: string): Promise<boolean> {
  const aside = siblingTempPath(lockPath).temp;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (isFsError(error, "NotFound")) return false;
    throw error;
  }
  // The lock is gone once renamed; what is left aside is swept later if it cannot be removed now.
  await removeTree(fs, aside).catch(() => {});
  return true;
}

/**
 * Removes what a killed writer of `path` left beside it, once we hold its lock: temp files
 * `.<name>.<hex>.tmp` of the file and its backups (only a lock holder writes them, so none is
 * live now), and lock folders being taken or set aside whose holder is gone (judged like a lock:
 * a live process may be about to rename its own into place) or that hold no holder file (a
 * taker that loses its folder that way just tries again).
 */
async function removeOrphans(fs: FileSystem, path: string, probe: ProcessProbe, staleMs: number, clock: () => number): Promise<void> {
  const { dir, prefix, base } = splitPath(path);
  for (const entry of await fs.list(dir).catch(() => [])) {
    if (LEFTOVER.exec(entry.name)?.[1] !== base) continue;
    const at = prefix + entry.name;
    if (!entry.isDirectory) {
      await removeIfPresent(fs, at).catch(() => {});
      continue;
    }
    // One without a holder file was emptied by a killed release, or is a moment from getting one.
    const seen = await inspect(fs, at, clock);
    if (seen !== null && (seen.holder === null || staleReason(seen, probe, staleMs) !== null)) await removeTree(fs, at).catch(() => {});
  }
}

/**
 * Breaks the stale locks beside `path` (not its own), and removes the leftovers of the files
 * that then have no lock: a temp file or lock folder outlives its writer only if it was killed.
 */
async function sweepFolder(fs: FileSystem, path: string, holder: LockHolder, probe: ProcessProbe, staleMs: number, clock: () => number): Promise<void> {
  const { dir, prefix, base } = splitPath(path);
  const entries = await fs.list(dir).catch(() => []);
  const others = new Set<string>();
  for (const entry of entries) {
    const other = LEFTOVER.exec(entry.name)?.[1] ?? (entry.isDirectory && entry.name.endsWith(".lock") ? entry.name.slice(0, -".lock".length) : undefined);
    if (other !== undefined && other !== base) others.add(prefix + other);
  }
  for (const other of others) {
    const seen = await inspect(fs, `${other}.lock`, clock);
    if (seen !== null && staleReason(seen, probe, staleMs) === null) continue;
    if (seen !== null && !(await breakStale(fs, `${other}.lock`, holder, probe, staleMs, clock).catch(() => false))) continue;
    await removeOrphans(fs, other, probe, staleMs, clock);
  }
}

/** `path`'s folder (for `list`), the prefix that names things in it, and the last name. */
function splitPath(path: string): { dir: string; prefix: string; base: string } {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1;
  const prefix = path.slice(0, cut);
  return { dir: cut === 0 ? "." : cut === 1 ? prefix : prefix.slice(0, -1), prefix, base: path.slice(cut) };
}


/** Keeps the holder file's mtime fresh: a newline appended every `everyMs`. */
function startHeartbeat(fs: FileSystem, holderPath: string, everyMs: number): { stop: () => Promise<void> } {
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beating.then(() => fs.append(holderPath, NEWLINE).catch(() => {}));
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await beating; // a beat in flight would otherwise recreate the file after release removes it
    },
  };
}

/**
 * Removes our lock; leaves it if it is not ours any more (broken by a waiter who judged it
 * stale). Renamed aside first, so a kill midway leaves no lock without its holder file (which
 * would have to be waited out), only a folder that the next run removes.
 */
async function release(fs: FileSystem, lockPath: string, token: string): Promise<void> {
  const text = await readText(fs, `${lockPath}/${HOLDER_FILE}`).catch(() => null);
  const holder = text === null ? null : parseHolder(text.trimEnd());
  if (holder !== null && holder.token !== token) return;
  await removeAside(fs, lockPath);
}

/** Removes a directory and the files in it (a lock holds a holder file and perhaps a temp file). */
async function removeTree(fs: FileSystem, dir: string): Promise<void> {
  for (const entry of await fs.list(dir).catch(() => [])) {
    const at = `${dir}/${entry.name}`;
    await (entry.isDirectory ? removeTree(fs, at) : removeIfPresent(fs, at));
  }
  await removeIfPresent(fs, dir);
}

async function readText(fs: FileSystem, path: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of fs.read(path)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

async function removeIfPresent(fs: FileSystem, path: string): Promise<void> {
  try {
    await fs.remove(path);
  } catch (error) {
    if (!isFsError(error, "NotFound")) throw error;
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
