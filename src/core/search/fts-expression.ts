/**
 * Turns a plain query into an FTS5 MATCH expression that finds every entry the matcher
 * would accept (and possibly more, which the matcher then drops): each term becomes a phrase
 * of its words with a prefix on the last one.
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
 * ftsExpression(parseSearchQuery('C:\\path "tree walk"')); // '"c path" * AND "tree walk" *'
 * ```
 */
export function ftsExpression(query: SearchQuery): string | null {
  if (query.regex) return null;
  const phrases = query.terms
    .map((term) => wordTokens(term))
    .filter((tokens) => tokens.length > 0)
    .map((tokens) => `"${tokens.join(" ")}" *`);
  return phrases.length ? phrases.join(" AND ") : null;
}
