/**
 * The shared matcher: word-start prefixes, phrases, case folding, CJK, special characters;
 * and the two narrowing steps (FTS expression, raw-line prefilter) never drop a real match.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ftsExpression, withPrefixWords } from "../../../src/core/search/fts-expression.ts";
import { linePrefilter } from "../../../src/core/search/line-prefilter.ts";
import { matchTerms, matchText, parseSearchQuery } from "../../../src/core/search/query.ts";
import { ftsText, wordTokens } from "../../../src/core/search/words.ts";

const found = (query: string, text: string, options = {}) => matchText(parseSearchQuery(query, options), text) !== null;

test("matchText() finds terms at word starts, case-insensitively", () => {
  assert.ok(found("pars", "The Parser"));
  assert.ok(!found("arser", "The Parser"));
  assert.ok(found("PARSER", "the parser_fix"));
  assert.ok(found("fix", "parser_fix"), "an underscore separates words");
  assert.ok(found("naïve", "NAÏVE approach"));
  assert.ok(!found("naive", "naïve"), "diacritics are kept");
  assert.ok(found("k", "\u212Aelvin"), "Unicode case folding");
});

test("matchText() needs every term and keeps a phrase's words together", () => {
  assert.ok(found("tree walk", "walk the tree"));
  assert.ok(!found('"tree walk"', "walk the tree"));
  assert.ok(found('"tree walk"', "Tree\n  walking"));
  assert.ok(!found("tree zebra", "walk the tree"));
});

test("matchText() treats each CJK character as a word", () => {
  assert.ok(found("セッション", "日本語のセッション"));
  assert.ok(found("本語", "日本語"));
  assert.ok(found("abc", "日本abc"), "a Latin word right after CJK starts a word");
});

test("matchText() takes regex special characters and quotes literally", () => {
  assert.ok(found("C:\\path\\file", 'see C:\\path\\file now'));
  assert.ok(found('"quoted"', 'say "quoted" words'), "a quoted term is a phrase");
  assert.ok(found("a.b*c", "x a.b*c y"));
  assert.ok(!found("a.b*c", "x aXbbc y"));
  assert.ok(found("(x)", "f(x) + 1"));
  assert.ok(found("-rf", "rm -rf /"));
  assert.ok(found("emoji 🚀", "an emoji 🚀 here"));
});

test("matchText() returns every match, sorted", () => {
  assert.deepEqual(matchText(parseSearchQuery("ab x"), "ab x ab"), [[0, 2], [3, 4], [5, 7]]);
});

test("parseSearchQuery() with --regex: case-sensitive unless asked, invalid patterns throw", () => {
  assert.ok(found("TODO\\(\\w+\\)", "x TODO(me) y", { regex: true }));
  assert.ok(!found("todo", "TODO", { regex: true }));
  assert.ok(found("todo", "TODO", { regex: true, ignoreCase: true }));
  assert.throws(() => parseSearchQuery("(", { regex: true }), SyntaxError);
  assert.throws(() => parseSearchQuery("  "), SyntaxError);
});

test("ftsExpression() asks for every word of every term, the last of each as a prefix", () => {
  assert.equal(ftsExpression(parseSearchQuery('C:\\path "tree walk"')), '"c" AND "path" * AND "tree" AND "walk" *');
  assert.equal(ftsExpression(parseSearchQuery("日本")), '"日" AND "本" *');
  assert.equal(ftsExpression(parseSearchQuery("flaky")), '"flaky" *');
  assert.equal(ftsExpression(parseSearchQuery("***")), null);
  assert.equal(ftsExpression(parseSearchQuery("x", { regex: true })), null);
  assert.deepEqual(wordTokens(ftsText("日本abc x_y")), ["日", "本", "abc", "x", "y"]);
});

test("withPrefixWords() asks each prefix word as the words given for it, leaves it where none are given, and is null where it stands for none", () => {
  const words: Record<string, string[] | undefined> = { walk: ["walk", "walked"], path: ['pa"th'], tree: [] };
  const expression = ftsExpression(parseSearchQuery('C:\\path "tree walk"'))!;
  assert.equal(withPrefixWords(expression, (prefix) => words[prefix]), '"c" AND ("pa""th") AND "tree" AND ("walk" OR "walked")');
  assert.equal(withPrefixWords('"flaky" *', () => undefined), '"flaky" *');
  assert.equal(withPrefixWords('"tree" *', (prefix) => words[prefix]), null);
  assert.equal(withPrefixWords('"日" AND "本" *', () => ["本"]), '"日" AND ("本")');
});

// A small seeded generator of texts and queries that mix the characters that cause trouble.
function rand(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
}
const ALPHABET = ["a", "b", "A", " ", "\n", "\t", '"', "\\", ".", "-", "é", "É", "日", "本", "🚀", "_", "k", "\u212A", "/", "x"];

test("linePrefilter() passes every JSON line whose texts match", () => {
  const next = rand(42);
  const pick = (n: number) => Array.from({ length: n }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join("");
  let matches = 0;
  for (let i = 0; i < 4000; i++) {
    const text = pick(30);
    const source = pick(1 + Math.floor(next() * 4));
    let query;
    try {
      query = parseSearchQuery(source);
    } catch {
      continue;
    }
    if (matchText(query, text) === null) continue;
    matches++;
    const line = JSON.stringify({ type: "message", message: { role: "user", content: text } });
    const filters = linePrefilter(query) ?? [];
    for (const filter of filters) assert.ok(filter.test(line), `${JSON.stringify(source)} in ${JSON.stringify(text)}`);
  }
  assert.ok(matches > 100, `only ${matches} matching pairs were generated`);
});

test("matchTerms() focuses on the shortest stretch holding every term", () => {
  const text = "test it, then npm install, then npm test";
  assert.deepEqual(matchTerms(parseSearchQuery("npm test"), text)?.focus, [32, 40]);
  assert.deepEqual(matchTerms(parseSearchQuery("test"), text)?.focus, [0, 4]);
  assert.equal(matchTerms(parseSearchQuery("npm yarn"), text), null);
});
