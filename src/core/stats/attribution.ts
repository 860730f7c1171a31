/**
 * Counts every usage entry once. Forks and clones copy entries with their id and timestamp; each
 * (id, timestamp) belongs to the first session holding it, parents (`parentSession`) before their
 * forks, else oldest header first, then path: the same answer whatever order files come in.
 * @module
 */
import { normalizePath } from "../storage/paths.ts";
import { ODD_ID, ROW_NUMBERS, rowCount, rowEntry, type UsageState } from "../digest/usage-state.ts";

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

/** What attribution order needs of a session: its path, header timestamp and parent. */
export type AttributionKey = Pick<UsageSession, "path" | "created" | "parentSession">;

/**
 * Sessions in attribution order: parents before forks, else oldest header first, then path.
 * Takes anything with a session's path, `created` and `parentSession` (a session's usage need
 * not be loaded yet). `unresolved` is given the parents (normalized) that are none of the sessions.
 *
 * @example
 * ```ts
 * attributionOrder([fork, parent]); // [parent, fork], even if the fork's header is older
 * ```
 */
export function attributionOrder<T extends AttributionKey>(sessions: readonly T[], unresolved?: Set<string>): T[] {
  // Each header time parsed once, not once per comparison; sessions go by their index (a typed
  // array says which are done, not a set of 25,000 of them).
  const ms = new Float64Array(sessions.length);
  sessions.forEach((s, i) => {
    const t = Date.parse(s.created);
    ms[i] = Number.isNaN(t) ? Infinity : t;
  });
  const byTime = Array.from(sessions.keys()).sort((a, b) => {
    const pa = sessions[a].path;
    const pb = sessions[b].path;
    return ms[a] - ms[b] || (pa < pb ? -1 : pa > pb ? 1 : 0);
  });
  // Only forks and clones look a parent up: without any, no index of paths is made.
  let byPath: Map<string, number> | undefined;
  const parentOf = (i: number): number | undefined => {
    const parent = sessions[i].parentSession;
    if (parent === undefined) return undefined;
    if (!byPath) {
      byPath = new Map();
      for (const j of byTime) byPath.set(normalizePath(sessions[j].path), j);
    }
    const found = byPath.get(normalizePath(parent));
    if (found === undefined) unresolved?.add(normalizePath(parent));
    return found;
  };
  // 1: in the order; 2: on the chain being walked.
  const mark = new Uint8Array(sessions.length);
  const order: T[] = [];
  const chain: number[] = [];
  for (const i of byTime) {
    if (mark[i] !== 0) continue;
    if (sessions[i].parentSession === undefined) {
      mark[i] = 1;
      order.push(sessions[i]);
      continue;
    }
    // Walk up the unvisited ancestors (a cycle stops at the first repeat), then emit top-down.
    for (let s: number | undefined = i; s !== undefined && mark[s] === 0; s = parentOf(s)) {
      chain.push(s);
      mark[s] = 2;
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      mark[chain[k]] = 1;
      order.push(sessions[chain[k]]);
    }
    chain.length = 0;
  }
  return order;
}

/** What makes an entry the same entry in another file: its id and timestamp, both strings. */
export function entryIdentity(id: unknown, timestamp: unknown): string | null {
  return typeof id === "string" && typeof timestamp === "string" ? `${id}\n${timestamp}` : null;
}

/**
 * The (id, timestamp) pairs seen so far. Rows that hold them as numbers (nearly all) go into an
 * open-addressing table of typed arrays, outside the JavaScript heap, which doubles once three
 * quarters full (sized up front when the number of rows is known); the odd ones into a map of
 * strings. A pair is only ever one or the other, so the two never meet. Doubling at half full,
 * the 150,000 pairs of 25,000 sessions took 524,288 slots (6.3 MB, and 9.4 MB as it doubled).
 * Each pair keeps the number its first holder was added with (its owner: 0 unless given).
 */
export class SeenEntries {
  #times: Float64Array;
  #ids: Uint32Array;
  #owners: Uint32Array;
  #mask: number;
  #count = 0;
  #odd = new Map<string, number>();

  /** Room for `rows` pairs at most three quarters full. */
  constructor(rows: number) {
    let size = 16;
    while (size * 3 < rows * 4) size *= 2;
    this.#times = new Float64Array(size).fill(NaN);
    this.#ids = new Uint32Array(size);
    this.#owners = new Uint32Array(size);
    this.#mask = size - 1;
  }

  /** Slots of the table of numeric pairs (16 bytes each). */
  get slots(): number {
    return this.#mask + 1;
  }

  /** Adds the pair of row `i`, owned by `owner`; false when it was there already, null when the row has none. */
  add(state: UsageState, i: number, owner = 0): boolean | null {
    // Read in place: a tuple per row was most of what attributing 200,000 rows allocated.
    const id = state.numbers[i * ROW_NUMBERS + 2];
    if (id === ODD_ID) {
      const identity = entryIdentity(...rowEntry(state, i));
      if (identity === null) return null;
      if (this.#odd.has(identity)) return false;
      this.#odd.set(identity, owner);
      return true;
    }
    if (this.#slot(id, state.numbers[i * ROW_NUMBERS + 3], owner) >= 0) return false;
    if (++this.#count * 4 > (this.#mask + 1) * 3) this.#grow();
    return true;
  }

  /** The owner of row `i`'s pair: undefined when it was not seen, null when the row has none. */
  ownerOf(state: UsageState, i: number): number | undefined | null {
    const id = state.numbers[i * ROW_NUMBERS + 2];
    if (id === ODD_ID) {
      const identity = entryIdentity(...rowEntry(state, i));
      return identity === null ? null : this.#odd.get(identity);
    }
    const slot = this.#slot(id, state.numbers[i * ROW_NUMBERS + 3], undefined);
    return slot < 0 ? undefined : this.#owners[slot];
  }

  /**
   * The slot holding the pair, or -1 when it was not there: then, with an `owner`, it is put in
   * the empty slot the search ended on.
   */
  #slot(id: number, ms: number, owner: number | undefined): number {
    const high = Math.floor(ms / 0x1_0000_0000);
    let h = Math.imul((ms | 0) ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) ^ Math.imul(id, 0xc2b2ae35);
    h ^= h >>> 15;
    for (let slot = h & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const time = this.#times[slot];
      if (Number.isNaN(time)) {
        if (owner === undefined) return -1;
        this.#times[slot] = ms;
        this.#ids[slot] = id;
        this.#owners[slot] = owner;
        return -1;
      }
      if (time === ms && this.#ids[slot] === id) return slot;
    }
  }

  #grow(): void {
    const [times, ids, owners] = [this.#times, this.#ids, this.#owners];
    this.#times = new Float64Array(times.length * 2).fill(NaN);
    this.#ids = new Uint32Array(times.length * 2);
    this.#owners = new Uint32Array(times.length * 2);
    this.#mask = times.length * 2 - 1;
    for (let slot = 0; slot < times.length; slot++) if (!Number.isNaN(times[slot])) this.#slot(ids[slot], times[slot], owners[slot]);
  }

  /** The pairs and their owners, to be read back by `SeenEntries.from`. */
  save(): SavedEntries {
    const count = this.#count;
    const saved: SavedEntries = { times: new Float64Array(count), ids: new Uint32Array(count), owners: new Uint32Array(count), odd: [...this.#odd] };
    let k = 0;
    for (let slot = 0; slot <= this.#mask; slot++) {
      if (Number.isNaN(this.#times[slot])) continue;
      saved.times[k] = this.#times[slot];
      saved.ids[k] = this.#ids[slot];
      saved.owners[k++] = this.#owners[slot];
    }
    return saved;
  }

  /** The pairs of `save()`; undefined when they are not pairs it saved (a pair twice, a time that is not one). */
  static from(saved: SavedEntries): SeenEntries | undefined {
    const count = saved.times.length;
    if (saved.ids.length !== count || saved.owners.length !== count) return undefined;
    const seen = new SeenEntries(count);
    for (let k = 0; k < count; k++) {
      if (Number.isNaN(saved.times[k]) || seen.#slot(saved.ids[k], saved.times[k], saved.owners[k]) >= 0) return undefined;
    }
    seen.#count = count;
    seen.#odd = new Map(saved.odd);
    return seen;
  }
}

/** The pairs of a `SeenEntries` (each pair's time, id and owner at the same place) and its odd ones. */
export interface SavedEntries {
  times: Float64Array;
  ids: Uint32Array;
  owners: Uint32Array;
  odd: [string, number][];
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
  readonly seen: SeenEntries;

  /** `rows`: how many rows will come, if known (the table is then sized once); or the pairs seen so far. */
  constructor(rows: number | SeenEntries = 0) {
    this.seen = typeof rows === "number" ? new SeenEntries(rows) : rows;
  }

  /**
   * Calls `owned` or `copied` for each row of `session`, in row order, from row `from`; `owner`
   * is the session's number, kept with the entries it is the first to hold.
   */
  add(session: UsageSession, owned?: (session: UsageSession, row: number) => void, copied?: (session: UsageSession, row: number) => void, owner = 0, from = 0): void {
    for (let i = from; i < rowCount(session.usage); i++) {
      // Entries without both (v1 files) have no identity: each counts where it is.
      if (this.seen.add(session.usage, i, owner) === false) copied?.(session, i);
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
