/**
 * Shortest unique id prefixes, as `git log --abbrev` shows them: enough characters to
 * tell every listed id apart (and to pass back as a reference), at least `min`.
 * @module
 */

/** The fewest characters a prefix has (an id no longer than this is its own prefix). */
export const MIN_PREFIX = 8;

/** How many leading characters `a` and `b` share. */
export function commonPrefix(a: string, b: string): number {
  // By code unit: ids of one day share 20 and more characters, and `a[i]` makes a string of each.
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The length of `id`'s unique prefix, given how many characters it shares with its neighbours in sorted order. */
function prefixLength(id: string, before: number, after: number, min: number): number {
  return Math.min(id.length, Math.max(min, Math.max(before, after) + 1));
}

/**
 * @example
 * ```ts
 * uniquePrefixes(["abcdef12x", "abcdef12y", "99"], 4); // Map { "abcdef12x" => "abcdef12x", "abcdef12y" => "abcdef12y", "99" => "99" }
 * ```
 */
export function uniquePrefixes(ids: readonly string[], min = MIN_PREFIX): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const result = new Map<string, string>();
  sorted.forEach((id, i) => {
    const before = i > 0 ? commonPrefix(id, sorted[i - 1]) : 0;
    const after = i < sorted.length - 1 ? commonPrefix(id, sorted[i + 1]) : 0;
    result.set(id, id.slice(0, prefixLength(id, before, after, min)));
  });
  return result;
}

/**
 * The length of each id's `uniquePrefixes` prefix, for distinct string `ids` (sorted in place):
 * numbers, not a set and strings, for the 146k ids `tree` prints among.
 *
 * @example
 * ```ts
 * uniquePrefixLengths(["abcdef12y", "99", "abcdef12x"], 4); // Map { "99" => 2, "abcdef12x" => 9, "abcdef12y" => 9 }
 * ```
 */
export function uniquePrefixLengths(ids: string[], min = MIN_PREFIX): Map<string, number> {
  ids.sort();
  const lengths = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    const before = i > 0 ? commonPrefix(id, ids[i - 1]) : 0;
    const after = i < ids.length - 1 ? commonPrefix(id, ids[i + 1]) : 0;
    lengths.set(id, prefixLength(id, before, after, min));
  }
  return lengths;
}

/**
 * `uniquePrefixLengths` of `ids` (repeats allowed: one id, one length) by their place in `ids`,
 * left in their order: an array of numbers, no map. The ids' places are sorted, not the ids, and
 * no map is made: a table of 25,000 sessions found its short ids in 15 ms of CPU against 80 for
 * a sort of the ids and a `SortedPrefixes` (its map of 25,000 fresh strings alone took 25).
 *
 * @example
 * ```ts
 * prefixLengthsAt(["abcdef12y", "99", "abcdef12x", "99"], 4); // [9, 2, 9, 2]
 * ```
 */
export function prefixLengthsAt(ids: readonly string[], min = MIN_PREFIX): number[] {
  const count = ids.length;
  // Code unit order, as `sort()` gives (and `SortedPrefixes` wants).
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  const lengths: number[] = new Array(count).fill(0);
  let before = 0;
  for (let k = 0; k < count;) {
    const id = ids[order[k]];
    let next = k + 1;
    while (next < count && ids[order[next]] === id) next++;
    const after = next < count ? commonPrefix(id, ids[order[next]]) : 0;
    const length = prefixLength(id, before, after, min);
    for (; k < next; k++) lengths[order[k]] = length;
    before = after;
  }
  return lengths;
}

/**
 * The shortest prefix of each of `shown` (at least `min` characters) that no other id of
 * `known` starts with: what a printed id needs to name one session among all of them.
 *
 * @example
 * ```ts
 * uniquePrefixesAmong(["abcdef12x"], ["abcdef12x", "abcdef12y", "99"]); // Map { "abcdef12x" => "abcdef12x" }
 * ```
 */
export function uniquePrefixesAmong(shown: readonly string[], known: readonly string[], min = MIN_PREFIX): Map<string, string> {
  const all = uniquePrefixes([...known, ...shown], min);
  return new Map(shown.map((id) => [id, all.get(id)!]));
}

/**
 * `uniquePrefixesAmong` over ids given one at a time in sorted order (code point order; repeats
 * allowed), as lengths (`uniquePrefixLengths`): each id's prefix depends only on its neighbours,
 * so nothing is held but the lengths of the ids to keep.
 *
 * @example
 * ```ts
 * const prefixes = new SortedPrefixes();
 * for (const id of ["abcdef12x", "abcdef12y", "99"].sort()) prefixes.push(id, id !== "99");
 * prefixes.end(); // Map { "abcdef12x" => 9, "abcdef12y" => 9 }
 * ```
 */
export class SortedPrefixes {
  #min: number;
  #kept = new Map<string, number>();
  #last: string | undefined;
  /** How much the last id shares with the one before it. */
  #before = 0;
  #keepLast = false;

  constructor(min = MIN_PREFIX) {
    this.#min = min;
  }

  /** The next id in order; `keep`: its prefix is wanted. */
  push(id: string, keep: boolean): void {
    if (id === this.#last) {
      this.#keepLast ||= keep;
      return;
    }
    const shared = this.#last === undefined ? 0 : commonPrefix(id, this.#last);
    this.#finish(Math.max(this.#before, shared));
    this.#last = id;
    this.#before = shared;
    this.#keepLast = keep;
  }

  /** The prefix lengths of the ids kept. */
  end(): Map<string, number> {
    this.#finish(this.#before);
    this.#last = undefined;
    return this.#kept;
  }

  #finish(shared: number): void {
    const id = this.#last;
    if (id !== undefined && this.#keepLast) this.#kept.set(id, prefixLength(id, shared, 0, this.#min));
  }
}
