/**
 * Turns a plain query into an FTS5 MATCH expression that finds every entry the matcher
 * would accept (and possibly more, which the matcher then drops): each word of each term is
 * required, the last of a term as a prefix. The index keeps no positions (`detail=none`, a
 * fraction of the size), so a term's words are not asked for in order: the matcher checks it.
 * @module
 */
import type { SearchQuery } from "./query.ts";
import { wordTokens } from "./words.ts";

/**
 * The MATCH expression, or null when the index cannot narrow the search (a regex, or terms
 * without any word characters): then every document has to be checked.
 *
 * @example
 * ```ts
 * ftsExpression(parseSearchQuery('C:\\path "tree walk"')); // '"c" AND "path" * AND "tree" AND "walk" *'
 * ```
 */
export function ftsExpression(query: SearchQuery): string | null {
  if (query.regex) return null;
  const phrases = query.terms
    .map((term) => wordTokens(term))
    .filter((tokens) => tokens.length > 0)
    .map((tokens) => tokens.map((token, i) => (i === tokens.length - 1 ? `"${token}" *` : `"${token}"`)).join(" AND "));
  return phrases.length ? phrases.join(" AND ") : null;
}
