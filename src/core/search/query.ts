/**
 * A search query and the matcher both search paths share. Plain queries: every term must
 * occur, case-insensitively, starting at a word boundary (so `pars` finds "parser" but not
 * "sparse"); `"a phrase"` keeps its words together; `--regex` takes a JavaScript pattern.
 * @module
 */
import { CJK_CHAR, isCjkChar, isWordChar, WORD_CHAR } from "./words.ts";

/** A parsed query: the terms as typed and one pattern per term (or the user's regex). */
export interface SearchQuery {
  source: string;
  regex: boolean;
  /** The terms (lower-cased, whitespace collapsed); empty for a regex query. */
  terms: string[];
  patterns: RegExp[];
}

/** A match in a text: UTF-16 offsets, end exclusive. */
export type MatchRange = [number, number];

const START = `(?<!(?!${CJK_CHAR})${WORD_CHAR})`;

/** `text` as a regex source that matches it literally (valid with the `u` flag). */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function termPattern(term: string): RegExp {
  const body = term.split(/\s+/).map(escapeRegExp).join("\\s+");
  const first = [...term][0] ?? "";
  const boundary = isWordChar(first) && !isCjkChar(first) ? START : "";
  return new RegExp(boundary + body, "giu");
}

/** The terms of a plain query: words, or `"quoted phrases"`. */
export function queryTerms(source: string): string[] {
  const terms: string[] = [];
  for (const match of source.matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (match[1] ?? match[2]).replace(/\s+/g, " ").trim().toLowerCase();
    if (term && !terms.includes(term)) terms.push(term);
  }
  return terms;
}

/**
 * Parses a query. Throws `SyntaxError` for an invalid regex or an empty query.
 *
 * @example
 * ```ts
 * parseSearchQuery('fix "tree walk"').terms; // ["fix", "tree walk"]
 * ```
 */
export function parseSearchQuery(source: string, options: { regex?: boolean; ignoreCase?: boolean } = {}): SearchQuery {
  if (options.regex) {
    const flags = options.ignoreCase ? "gi" : "g";
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, flags + "u");
    } catch {
      pattern = new RegExp(source, flags);
    }
    return { source, regex: true, terms: [], patterns: [pattern] };
  }
  const terms = queryTerms(source);
  if (terms.length === 0) throw new SyntaxError("The query has no words to search for");
  return { source, regex: false, terms, patterns: terms.map(termPattern) };
}

/** Every match of `pattern` in `text`. */
function allMatches(pattern: RegExp, text: string, out: MatchRange[]): boolean {
  pattern.lastIndex = 0;
  let found = false;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    found = true;
    out.push([m.index, m.index + m[0].length]);
  }
  return found;
}

/**
 * The matches of every term in `text`, sorted, or null when some term is missing.
 *
 * @example
 * ```ts
 * matchText(parseSearchQuery("pars"), "The Parser"); // [[4, 8]]
 * ```
 */
export function matchText(query: SearchQuery, text: string): MatchRange[] | null {
  return matchTerms(query, text)?.ranges ?? null;
}

/**
 * The matches of every term in `text` (sorted), and the shortest stretch of it that holds a
 * match of each term: where a snippet shows every term at once. Null when some term is missing.
 *
 * @example
 * ```ts
 * matchTerms(parseSearchQuery("npm test"), "test it, then npm install, then npm test")?.focus; // [32, 40]
 * ```
 */
export function matchTerms(query: SearchQuery, text: string): { ranges: MatchRange[]; focus: MatchRange } | null {
  const perTerm: MatchRange[][] = [];
  for (const pattern of query.patterns) {
    const found: MatchRange[] = [];
    if (!allMatches(pattern, text, found)) return null;
    perTerm.push(found);
  }
  const ranges = perTerm.flat().sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  return { ranges, focus: closestSpan(perTerm) };
}

/**
 * The shortest span holding one range of each list (every list non-empty), by a sliding window
 * over the ranges in order of start (a span's end taken from its first and last range); with one
 * list, its first range.
 */
function closestSpan(perTerm: readonly MatchRange[][]): MatchRange {
  if (perTerm.length === 1) return perTerm[0][0];
  const tagged = perTerm.flatMap((ranges, term) => ranges.map((range) => ({ range, term }))).sort((a, b) => a.range[0] - b.range[0]);
  const counts = new Array<number>(perTerm.length).fill(0);
  let covered = 0;
  let best: MatchRange = tagged[0].range;
  let bestWidth = Infinity;
  let low = 0;
  for (let high = 0; high < tagged.length; high++) {
    if (counts[tagged[high].term]++ === 0) covered++;
    while (covered === perTerm.length) {
      const start = tagged[low].range[0];
      const end = Math.max(tagged[low].range[1], tagged[high].range[1]);
      if (end - start < bestWidth) [best, bestWidth] = [[start, end], end - start];
      if (--counts[tagged[low].term] === 0) covered--;
      low++;
    }
  }
  return best;
}
