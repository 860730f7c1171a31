/**
 * Counts every usage entry once. Forks and clones copy entries with their id and timestamp; each
 * (id, timestamp) belongs to the first session holding it, parents (`parentSession`) before their
 * forks, else oldest header first, then path: the same answer whatever order files come in.
 * @module
 */
import { normalizePath } from "../storage/paths.ts";
import { rowCount, type UsageState } from "../digest/usage-digest.ts";

/** The usage of one session file, with what grouping needs from its header. */
export interface UsageSession {
  path: string;
  id: string;
  cwd: string;
  /** Header timestamp as written. */
  created: string;
  parentSession?: string;
  name?: string;
  usage: UsageState;
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

/**
 * The (id, timestamp) pairs seen so far, keyed by timestamp and then id: the strings the
 * states already hold serve as keys, instead of one new string per usage entry.
 */
class SeenEntries {
  #byTimestamp = new Map<string, string | Set<string>>();

  /** Adds the pair; false when it was there already. */
  add(id: string, timestamp: string): boolean {
    const ids = this.#byTimestamp.get(timestamp);
    if (ids === undefined) {
      this.#byTimestamp.set(timestamp, id);
      return true;
    }
    if (typeof ids === "string") {
      if (ids === id) return false;
      this.#byTimestamp.set(timestamp, new Set([ids, id]));
      return true;
    }
    if (ids.has(id)) return false;
    ids.add(id);
    return true;
  }
}

/**
 * Calls `owned` once per distinct usage entry (for the session it first appeared in) and
 * `copied` for every other copy, with the session and the row's index in its usage state.
 */
export function attributeUsage(
  sessions: readonly UsageSession[],
  owned: (session: UsageSession, row: number) => void,
  copied?: (session: UsageSession, row: number) => void,
): void {
  const seen = new SeenEntries();
  for (const session of attributionOrder(sessions)) {
    const { ids, timestamps } = session.usage;
    for (let i = 0; i < rowCount(session.usage); i++) {
      const id = ids[i];
      const timestamp = timestamps[i];
      // Entries without both (v1 files) have no identity: each counts where it is.
      if (id !== null && timestamp !== null && !seen.add(id, timestamp)) copied?.(session, i);
      else owned(session, i);
    }
  }
}
