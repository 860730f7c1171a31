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

/** A prefix word of an expression (`"word" *`): the word, quoted as `ftsExpression` quotes it. */
const PREFIX_WORD = /"([^"]*)" \*/g;

/**
 * `expression` (of `ftsExpression`) with each prefix word asked as the words of the index it
 * stands for, where `wordsOf` gives them (undefined: left a prefix): `"test" *` as
 * `("test" OR "tests")`. FTS5 gathers every use of a prefix's words into one list before it
 * reads any, and one word's uses as they are: at 25,000 sessions, `"test" *` took 17 to 19 ms,
 * `"test" OR "tests"` 5. Null when a prefix stands for no word: then nothing matches.
 *
 * @example
 * ```ts
 * withPrefixWords('"tree" AND "walk" *', () => ["walk", "walked"]); // '"tree" AND ("walk" OR "walked")'
 * ```
 */
export function withPrefixWords(expression: string, wordsOf: (prefix: string) => readonly string[] | undefined): string | null {
  let none = false;
  const rewritten = expression.replace(PREFIX_WORD, (prefixWord, prefix: string) => {
    const words = wordsOf(prefix);
    if (words === undefined) return prefixWord;
    if (words.length === 0) none = true;
    return `(${words.map((word) => `"${word.replaceAll('"', '""')}"`).join(" OR ")})`;
  });
  return none ? null : rewritten;
}
