/**
 * Who holds a session file's lock, as written in `<file>.lock/holder.json`, and the pure rules
 * on it: when a lock is stale, and how to name its holder in an error.
 * @module
 */

import type { ProcessProbe } from "./process-probe.ts";

/** The holder file's fields. `token` tells this taking of the lock from any later one. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's pid namespace (see `ProcessProbe.pidSpace`). */
  space?: string;
  /** The holder process's start time (see `ProcessProbe.startTime`), so a reused pid is not taken for it. */
  start?: string;
  /** When the lock was taken, in ms since the epoch. */
  since: number;
  token: string;
}

/** A lock as a waiter sees it: its holder (if the file is there and whole) and its last sign of life. */
export interface SeenLock {
  holder: LockHolder | null;
  /** ms since the holder file was last written (its heartbeat), or since the directory was made. */
  ageMs: number;
}

/** The holder file's text; heartbeats append newlines after it. */
export function formatHolder(holder: LockHolder): string {
  return JSON.stringify(holder) + "\n";
}

/** The holder in a holder file's text, or `null` when it is torn, empty or not ours. */
export function parseHolder(text: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { pid, host, space, start, since, token } = value as Record<string, unknown>;
  if (!Number.isInteger(pid) || typeof host !== "string" || typeof since !== "number" || typeof token !== "string") return null;
  if ((start !== undefined && typeof start !== "string") || (space !== undefined && typeof space !== "string")) return null;
  return { pid: pid as number, host, ...(space === undefined ? {} : { space }), ...(start === undefined ? {} : { start }), since, token };
}

/** Why a lock may be broken, or `null` while its holder may still be working. */
export type StaleReason = "holder-gone" | "pid-reused" | "no-heartbeat";

/**
 * Whether a seen lock is stale. A holder on this host (same host name and pid namespace) is asked
 * about directly: gone, or a different process under its pid, means stale at once; alive means
 * never stale, however long it works (a synchronous read can hold up its heartbeat). Otherwise
 * (another host or container, a runtime that cannot tell, or no holder file) the lock is stale
 * once its heartbeat is older than `staleMs`.
 */
export function staleReason(seen: SeenLock, probe: ProcessProbe, staleMs: number): StaleReason | null {
  const { holder } = seen;
  if (holder !== null && probe.hostname !== "" && holder.host === probe.hostname && holder.space === probe.pidSpace) {
    const alive = probe.isAlive(holder.pid);
    if (alive === false) return "holder-gone";
    if (alive === true) {
      const start = holder.start === undefined ? undefined : probe.startTimeOf(holder.pid);
      return start !== undefined && start !== holder.start ? "pid-reused" : null;
    }
  }
  return seen.ageMs > staleMs ? "no-heartbeat" : null;
}

/**
 * Who holds the lock, for an error: `held by pid 1234 on host x since 14:02:11 (12 s ago)`,
 * or for a lock without a holder file `held by an unknown process (12 s old)`. Times are UTC.
 */
export function describeHolder(seen: SeenLock, now: number): string {
  const { holder } = seen;
  if (holder === null) return `held by an unknown process (its lock is ${seconds(seen.ageMs)} old)`;
  const since = new Date(holder.since).toISOString().slice(11, 19);
  return `held by pid ${holder.pid} on host ${holder.host} since ${since} UTC (${seconds(now - holder.since)} ago)`;
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))} s`;
}
