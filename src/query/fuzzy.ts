/**
 * Fuzzy subsequence scoring with the rules pi-tui's matcher uses (REFERENCE §9.1), so ranks
 * agree with pi's /resume: lower is better; consecutive and word-start hits earn bonuses,
 * gaps and late hits cost, an exact whole-text match wins outright.
 * @module
 */

const BOUNDARY = /[\s\-_./:]/;

/** The cost of hitting `text` at `positions` (ascending). */
function positionsScore(text: string, positions: readonly number[]): number {
  let score = 0;
  let previous = -1;
  let run = 0;
  for (const at of positions) {
    if (at === previous + 1) {
      run++;
      score -= run * 5;
    } else {
      run = 0;
      if (previous >= 0) score += (at - previous - 1) * 2;
    }
    if (at === 0 || BOUNDARY.test(text[at - 1])) score -= 10;
    score += at * 0.1;
    previous = at;
  }
  return score;
}

/** Best alignment of lower-cased `query` in lower-cased `text`, or undefined. */
function align(query: string, text: string): number | undefined {
  if (query.length === 0) return 0;
  if (query.length > text.length) return undefined;
  const positions: number[] = [];
  let from = 0;
  // Code units, as JavaScript indexes strings (a surrogate pair is two of them).
  for (let k = 0; k < query.length; k++) {
    const at = text.indexOf(query[k], from);
    if (at < 0) return undefined;
    positions.push(at);
    from = at + 1;
  }
  let best = positionsScore(text, positions);
  // The first-hit alignment can scatter over an earlier, unrelated part; every contiguous
  // occurrence is scored too and the best one kept.
  for (let start = text.indexOf(query); start >= 0; start = text.indexOf(query, start + 1)) {
    best = Math.min(best, positionsScore(text, positions.map((_, k) => start + k)));
  }
  return query === text ? best - 100 : best;
}

/**
 * How well `query` matches `text` as a subsequence, case-insensitively: a score (lower is
 * better) or undefined. `abc123` also matches as `123abc` (and the reverse), at a small cost.
 *
 * @example
 * ```ts
 * fuzzyScore("cfg", "config") !== undefined; // true
 * fuzzyScore("xyz", "config"); // undefined
 * ```
 */
export function fuzzyScore(query: string, text: string): number | undefined {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  const direct = align(q, t);
  if (direct !== undefined) return direct;
  const swapped = /^([a-z]+)([0-9]+)$/.exec(q) ?? /^([0-9]+)([a-z]+)$/.exec(q);
  if (!swapped) return undefined;
  const other = align(swapped[2] + swapped[1], t);
  return other === undefined ? undefined : other + 5;
}
