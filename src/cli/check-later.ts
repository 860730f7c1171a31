/**
 * The full check a read-only command puts off. When the catalog's last full check (every session
 * file stat'ed, src/catalog/folder-check.ts) is over a minute old, a command marked `checksLater`
 * answers by the quick check, and once it is done starts itself again, detached, its output
 * dropped, with `PI_SESSION_CHECK=full`: that run stats every file, reads what changed and
 * records the full check. At 25,000 sessions the stats alone are 80-90 ms, most of a warm
 * `search`; the user no longer waits for them.
 *
 * What it changes in the guarantee: a session changed without a change of its folder (an older
 * session resumed and appended to), not seen by the quick check, is seen by the runs that start
 * after that background run ends (at the latest a minute and a run's time after the change, for
 * a user running commands), or at once with `PI_SESSION_CHECK=full`. A last full check over a day
 * old is made at once, not put off (`PUT_OFF_AT_MOST_MS`): should the background runs never
 * start or never record (a cache dir that cannot be written), no answer is more than a day behind.
 *
 * One background run at a time: a mark file in the cache dir is made (exclusively) before the
 * start and removed by that run at its end; a mark older than `MARK_STALE_MS` (a run killed
 * before its end) is replaced.
 * @module
 */
import { defaultCacheDir } from "../catalog/open-catalog.ts";
import { joinPath } from "../core/storage/paths.ts";
import type { CliDeps } from "./deps.ts";

/** The variable naming the mark a background run removes at its end. */
export const LATER_MARK_ENV = "PI_SESSION_CHECK_MARK";
/** A mark this old is from a run that did not end as it should: another run may start. */
export const MARK_STALE_MS = 120_000;

/** The mark of a running background check, in the cache dir of `storage`. */
export function laterMark(storage: CliDeps["storage"]): string {
  return joinPath(defaultCacheDir(storage), "full-check-running");
}

/**
 * Starts the put-off full check: this command line again, detached, with `PI_SESSION_CHECK=full`,
 * unless one is running (its mark is fresh) or none can be started. True when started.
 */
export async function startCheckLater(deps: CliDeps): Promise<boolean> {
  if (!deps.runAgainDetached) return false;
  const mark = laterMark(deps.storage);
  const now = deps.now().getTime();
  const found = await deps.fs.stat(mark).catch(() => null);
  if (found && Math.abs(now - found.mtimeMs) < MARK_STALE_MS) return false;
  try {
    if (found) await deps.fs.remove(mark);
    await deps.fs.append(mark, new TextEncoder().encode(`${new Date(now).toISOString()}\n`), { exclusive: true });
  } catch {
    // Another run made it first, or the cache dir cannot be written (then neither can the check).
    return false;
  }
  if (await deps.runAgainDetached({ PI_SESSION_CHECK: "full", [LATER_MARK_ENV]: mark })) return true;
  // Not started: the next run that finds the full check old tries again.
  await deps.fs.remove(mark).catch(() => {});
  return false;
}

/** In the background run (its environment names the mark): removes the mark, the run being over. */
export async function endCheckLater(deps: CliDeps): Promise<void> {
  const mark = laterMark(deps.storage);
  // Only the mark this module makes: the variable is not a way to have any file removed.
  if (deps.storage.env(LATER_MARK_ENV) === mark) await deps.fs.remove(mark).catch(() => {});
}
