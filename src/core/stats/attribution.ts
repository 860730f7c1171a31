/**
 * Counts every usage entry once. Forks and clones copy entries with their id and timestamp; each
 * (id, timestamp) belongs to the first session holding it, parents (`parentSession`) before their
 * forks, else oldest header first, then path: the same answer whatever order files come in.
 * @module
 */
import { normalizePath } from "../storage/paths.ts";
import { rowCount, rowEntry, rowNumbers, type UsageState } from "../digest/usage-state.ts";

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
 * The (id, timestamp) pairs seen so far. Rows that hold them as numbers (nearly all) go into an
 * open-addressing table of typed arrays, outside the JavaScript heap, which doubles once half
 * full (sized up front when the number of rows is known); the odd ones into a set of strings. A
 * pair is only ever one or the other, so the two never meet.
 */
class SeenEntries {
  #times: Float64Array;
  #ids: Uint32Array;
  #mask: number;
  #count = 0;
  #odd = new Set<string>();

  /** Room for `rows` pairs at most half full. */
  constructor(rows: number) {
    let size = 16;
    while (size < rows * 2) size *= 2;
    this.#times = new Float64Array(size).fill(NaN);
    this.#ids = new Uint32Array(size);
    this.#mask = size - 1;
  }

  /** Adds the pair of row `i`; false when it was there already, null when the row has none. */
  add(state: UsageState, i: number): boolean | null {
    const pair = rowNumbers(state, i);
    if (pair === undefined) {
      const identity = entryIdentity(...rowEntry(state, i));
      if (identity === null) return null;
      if (this.#odd.has(identity)) return false;
      this.#odd.add(identity);
      return true;
    }
    const [id, ms] = pair;
    if (!this.#insert(id, ms)) return false;
    if (++this.#count * 2 > this.#mask + 1) this.#grow();
    return true;
  }

  /** Puts the pair in the table; false when it was there already. */
  #insert(id: number, ms: number): boolean {
    const high = Math.floor(ms / 0x1_0000_0000);
    let h = Math.imul((ms | 0) ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(id, 0xc2b2ae35);
    h ^= h >>> 15;
    for (let slot = h & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const time = this.#times[slot];
      if (Number.isNaN(time)) {
        this.#times[slot] = ms;
        this.#ids[slot] = id;
        return true;
      }
      if (time === ms && this.#ids[slot] === id) return false;
    }
  }

  #grow(): void {
    const [times, ids] = [this.#times, this.#ids];
    this.#times = new Float64Array(times.length * 2).fill(NaN);
    this.#ids = new Uint32Array(times.length * 2);
    this.#mask = times.length * 2 - 1;
    for (let slot = 0; slot < times.length; slot++) if (!Number.isNaN(times[slot])) this.#insert(ids[slot], times[slot]);
  }
}

/**
 * The attribution one session at a time, for a caller that reads sessions as it goes: sessions
 * must come in `attributionOrder`; each usage row is the first of its entry (owned) or a copy.
 *
 * @example
 * ```ts
 * const attribution = new UsageAttribution();
 * for (const session of attributionOrder(sessions)) attribution.add(session, onOwned, onCopied);
 * ```
 */
export class UsageAttribution {
  readonly #seen: SeenEntries;

  /** `rows`: how many rows will come, if known (the table is then sized once). */
  constructor(rows = 0) {
    this.#seen = new SeenEntries(rows);
  }

  /** Calls `owned` or `copied` for each row of `session`, in row order. */
  add(session: UsageSession, owned?: (session: UsageSession, row: number) => void, copied?: (session: UsageSession, row: number) => void): void {
    for (let i = 0; i < rowCount(session.usage); i++) {
      // Entries without both (v1 files) have no identity: each counts where it is.
      if (this.#seen.add(session.usage, i) === false) copied?.(session, i);
      else owned?.(session, i);
    }
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
  const attribution = new UsageAttribution(sessions.reduce((n, s) => n + rowCount(s.usage), 0));
  for (const session of attributionOrder(sessions)) attribution.add(session, owned, copied);
}
