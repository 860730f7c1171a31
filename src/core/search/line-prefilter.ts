/**
 * A cheap test on a raw JSON line before it is parsed: does it hold the longest unbroken piece
 * of every term as JSON spells it, folding case as the matcher does (`iu`)? Lines that fail
 * cannot match; lines that pass are parsed and checked by the real matcher.
 * @module
 */
import { escapeRegExp, type SearchQuery } from "./query.ts";

/** The longest run of a term without whitespace or control characters. */
function longestPiece(term: string): string {
  return term.split(/[\s\u0000-\u001f]+/).reduce((a, b) => (b.length > a.length ? b : a), "");
}

/**
 * Per term (longest piece first), the spellings of its piece in a raw line: text inside JSON
 * strings has `"` and `\` escaped, but tool-call arguments are objects whose quotes are bare.
 * Null when nothing can be ruled out from the raw bytes (regex queries).
 *
 * @example
 * ```ts
 * prefilterPieces(parseSearchQuery('say "a\\b"')); // [["a\\\\b", "a\\b"], ["say"]]
 * ```
 */
export function prefilterPieces(query: SearchQuery): string[][] | null {
  if (query.regex) return null;
  const pieces = query.terms.map(longestPiece).filter((p) => p !== "");
  if (pieces.length === 0) return null;
  pieces.sort((a, b) => b.length - a.length);
  return pieces.map((piece) => [...new Set([JSON.stringify(piece).slice(1, -1), piece])]);
}

/**
 * One case-insensitive pattern per term, to test on a raw line; null as for `prefilterPieces`.
 *
 * @example
 * ```ts
 * linePrefilter(parseSearchQuery('say "hi there"'))?.map((p) => p.source); // ["there", "say"]
 * ```
 */
export function linePrefilter(query: SearchQuery): RegExp[] | null {
  return prefilterPieces(query)?.map((spellings) => new RegExp(spellings.map(escapeRegExp).join("|"), "iu")) ?? null;
}
