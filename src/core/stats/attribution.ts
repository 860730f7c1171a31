/**
 * Counts every usage entry once. Forks and clones copy entries with their id and timestamp; each
 * (id, timestamp) belongs to the first session holding it, parents (`parentSession`) before their
 * forks, else oldest header first, then path: the same answer whatever order files come in.
 * @module
 */
import { normalizePath } from "../storage/paths.ts";
import type { UsageRow } from "../digest/usage-digest.ts";

/** The usage of one session file, with what grouping needs from its header. */
export interface UsageSession {
  path: string;
  id: string;
  cwd: string;
  /** Header timestamp as written. */
  created: string;
  parentSession?: string;
  name?: string;
  rows: UsageRow[];
}

function createdMs(session: UsageSession): number {
  const ms = Date.parse(session.created);
  return Number.isNaN(ms) ? Infinity : ms;
}

/**
 * Sessions in attribution order: parents before forks, else oldest header first, then path.
 *
 * @example
 * ```ts
 * attributionOrder([fork, parent]); // [parent, fork], even if the fork's header is older
 * ```
 */
export function attributionOrder(sessions: readonly UsageSession[]): UsageSession[] {
  const sorted = [...sessions].sort((a, b) => createdMs(a) - createdMs(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const byPath = new Map<string, UsageSession>();
  for (const s of sorted) byPath.set(normalizePath(s.path), s);
  const done = new Set<UsageSession>();
  const order: UsageSession[] = [];
  for (const session of sorted) {
    // Walk up the unvisited ancestors (a cycle stops at the first repeat), then emit top-down.
    const chain: UsageSession[] = [];
    const onChain = new Set<UsageSession>();
    for (let s: UsageSession | undefined = session; s && !done.has(s) && !onChain.has(s);) {
      chain.push(s);
      onChain.add(s);
      s = s.parentSession === undefined ? undefined : byPath.get(normalizePath(s.parentSession));
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      done.add(chain[i]);
      order.push(chain[i]);
    }
  }
  return order;
}

/** What makes an entry the same entry in another file: its id and timestamp, both strings. */
export function entryIdentity(id: unknown, timestamp: unknown): string | null {
  return typeof id === "string" && typeof timestamp === "string" ? `${id}\n${timestamp}` : null;
}

/** The identity of a row across files, or null when it has none (v1 entries without ids). */
export function rowIdentity(row: UsageRow): string | null {
  return entryIdentity(row[1], row[2]);
}

/**
 * Calls `owned` once per distinct usage entry (for the session it first appeared in) and
 * `copied` for every other copy, naming the owner.
 */
export function attributeUsage(
  sessions: readonly UsageSession[],
  owned: (session: UsageSession, row: UsageRow) => void,
  copied?: (session: UsageSession, row: UsageRow, owner: UsageSession) => void,
): void {
  const owners = new Map<string, UsageSession>();
  for (const session of attributionOrder(sessions)) {
    for (const row of session.rows) {
      const identity = rowIdentity(row);
      const owner = identity === null ? undefined : owners.get(identity);
      if (owner !== undefined) {
        copied?.(session, row, owner);
        continue;
      }
      if (identity !== null) owners.set(identity, session);
      owned(session, row);
    }
  }
}
