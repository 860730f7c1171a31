/**
 * Shortest unique id prefixes, as `git log --abbrev` shows them: enough characters to
 * tell every listed id apart (and to pass back as a reference), at least `min`.
 * @module
 */

/** How many leading characters `a` and `b` share. */
export function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * @example
 * ```ts
 * uniquePrefixes(["abcdef12x", "abcdef12y", "99"], 4); // Map { "abcdef12x" => "abcdef12x", "abcdef12y" => "abcdef12y", "99" => "99" }
 * ```
 */
export function uniquePrefixes(ids: readonly string[], min = 8): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const result = new Map<string, string>();
  sorted.forEach((id, i) => {
    const before = i > 0 ? commonPrefix(id, sorted[i - 1]) : 0;
    const after = i < sorted.length - 1 ? commonPrefix(id, sorted[i + 1]) : 0;
    result.set(id, id.slice(0, Math.max(min, Math.max(before, after) + 1)));
  });
  return result;
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
export function uniquePrefixesAmong(shown: readonly string[], known: readonly string[], min = 8): Map<string, string> {
  const all = uniquePrefixes([...known, ...shown], min);
  return new Map(shown.map((id) => [id, all.get(id)!]));
}
