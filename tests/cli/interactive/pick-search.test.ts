/**
 * Tests for the picker's search: a table of expected rankings (every runtime), then pi's
 * own `session-selector-search.js` as an oracle on generated session lists (Node only: it
 * imports pi-tui through the package's Node entry).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionInfo } from "../../../src/core/info/session-info.ts";
import { fuzzyScore } from "../../../src/query/fuzzy.ts";
import { parseQuery, scoreSession, searchSessions, type TextMatch, textPasses, textTestKey, textTestsOf } from "../../../src/query/resume-search.ts";
import { info } from "./_sessions.ts";

const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);

const SESSIONS = [
  info("aaa", { name: "Fix login bug", minutes: 1, allMessagesText: "the login form loses focus" }),
  info("bbb", { name: "Refactor config loader", minutes: 5, allMessagesText: "node   CVE patch for the loader" }),
  info("ccc", { minutes: 9, allMessagesText: "please fix the login redirect", cwd: "/home/dev/webshop" }),
  info("ddd", { name: "webshop cart", minutes: 3, cwd: "/srv/api-v2" }),
  info("eee", { minutes: 7, allMessagesText: "nothing relevant", cwd: "/home/dev/logcat" }),
];

const RANKINGS: [query: string, expected: string[]][] = [
  ["", ["aaa", "bbb", "ccc", "ddd", "eee"]],
  ["login", ["aaa", "ccc"]], // the name before message text
  ["LOGIN fix", ["aaa", "ccc"]], // tokens ANDed, case-insensitive
  ['"node cve"', ["bbb"]], // a phrase across collapsed whitespace
  ['"login redirect" fix', ["ccc"]],
  ["re:log.n", ["aaa", "ccc"]], // a regex: name tier, then text tier
  ["re:^/home/dev/l", ["eee"]],
  ["re:(", []], // invalid: no results
  ["re:", []],
  ["webshop", ["ddd", "ccc"]], // name (ddd) before cwd (ccc)
  ["wbshp", ["ddd", "ccc"]], // fuzzy in name and cwd
  ["lgcat", ["eee"]], // fuzzy only in cwd
  ["relvant", []], // never fuzzy in message text
  ["bbb", ["bbb"]], // the id
  ["2v", ["ddd"]], // "v2" swapped
  ['foo "bar', []], // unclosed quote: `"bar` stays a token
  ["zzz", []],
];

for (const [query, expected] of RANKINGS) {
  test(`searchSessions() ranks ${JSON.stringify(query)} as ${JSON.stringify(expected)}`, () => {
    assert.deepEqual(searchSessions(SESSIONS, query).sessions.map((s) => s.id), expected);
  });
}

test("textTestsOf() and textPasses() answer for the texts as the sessions' own allMessagesText does, ranking alike", () => {
  for (const [query, expected] of RANKINGS) {
    // What a scan finds: for each test of the query, the sessions whose texts pass it.
    const tests = textTestsOf(query);
    const found = new Map(tests.map((test) => [textTestKey(test), new Set<string>()]));
    for (const session of SESSIONS) textPasses(session.allMessagesText, tests).forEach((passed, i) => passed && found.get(textTestKey(tests[i]))!.add(session.id));
    const scanned: TextMatch = (session, test) => found.get(textTestKey(test))?.has(session.id) ?? false;
    const bare = SESSIONS.map((session) => ({ ...session, allMessagesText: "" }));
    assert.deepEqual(searchSessions(bare, query, false, scanned).sessions.map((s) => s.id), expected, query);
  }
  assert.deepEqual(textTestsOf('Login "NODE  cve" login re:x'), [{ kind: "substring", value: "login" }, { kind: "phrase", value: "node cve" }, { kind: "substring", value: "re:x" }]);
});

test("textPasses() on a text of megabytes, lower-cased a piece at a time, answers as the whole text lower-cased does", () => {
  const filler = (n: number) => "lorem ipsum ΟΔΟΣ dolor ".repeat(n);
  // Words and phrases around the 1 MiB piece ends, a phrase across a long run of whitespace, sigmas.
  const text = filler(43_690) + "Flaky" + filler(10) + "NPM" + " \n\t ".repeat(5000) + "Test " + filler(50_000) + "ΑΣ\uFEFFΒ İstanbul end";
  const queries = ["flaky", '"npm test"', "ίstanbul", "i̇stanbul", '"οδοσ dolor"', '"οδος dolor"', "ασ\uFEFFβ", "ας\uFEFFβ", '"test lorem"', "re:npm\\s+test", "zebra", '"ipsum flaky"'];
  const lower = text.toLowerCase();
  const collapsed = lower.replace(/\s+/g, " ").trim();
  for (const query of queries) {
    const tests = textTestsOf(query);
    const expected = tests.map((test) => (test.kind === "regex" ? test.regex.test(text) : test.kind === "phrase" ? collapsed.includes(test.value) : lower.includes(test.value)));
    assert.deepEqual(textPasses(text, tests), expected, query);
  }
  assert.deepEqual(textPasses(text, textTestsOf('flaky "npm test" "test lorem"')), [true, true, true]);
});

test("searchSessions() breaks score ties toward the newer session, and reports a bad regex", () => {
  const twins = [info("old", { name: "same", minutes: 1 }), info("new", { name: "same", minutes: 2 })];
  assert.deepEqual(searchSessions(twins, "same").sessions.map((s) => s.id), ["new", "old"]);
  assert.deepEqual(searchSessions(twins, "same", true).sessions.map((s) => s.id), ["old", "new"]);
  assert.equal(searchSessions(twins, "re:[").error !== undefined, true);
  assert.equal(searchSessions(twins, "re:  ").error, "Empty regex");
});

test("parseQuery() splits at quotes and whitespace, and keeps quotes of an unclosed phrase", () => {
  assert.deepEqual(parseQuery('a"b c"d'), {
    mode: "tokens",
    tokens: [{ kind: "fuzzy", value: "a" }, { kind: "phrase", value: "b c" }, { kind: "fuzzy", value: "d" }],
  });
  assert.deepEqual(parseQuery('foo "bar'), { mode: "tokens", tokens: [{ kind: "fuzzy", value: "foo" }, { kind: "fuzzy", value: '"bar' }] });
  assert.deepEqual(parseQuery("   "), { mode: "tokens", tokens: [] });
});

test("fuzzyScore() prefers contiguous, word-start and exact matches", () => {
  assert.equal(fuzzyScore("xyz", "config"), undefined);
  assert.ok(fuzzyScore("cfg", "config")! > fuzzyScore("con", "config")!);
  assert.ok(fuzzyScore("loader", "config loader")! < fuzzyScore("loader", "configloader")!);
  assert.ok(fuzzyScore("app", "app")! < fuzzyScore("app", "apps")! - 50);
  assert.equal(fuzzyScore("", "anything"), 0);
});

/** A small deterministic generator (no Math.random, so failures reproduce). */
function generator(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  return { next, pick };
}

const WORDS = ["login", "bug", "fix", "Cart", "discount", "config", "loader", "api", "v2", "test", "auth", "node cve", "x", "a-b", "foo_bar", "src/app", "Ünïcode", "日本語", "re"];

function generatedSessions(seed: number, count: number): SessionInfo[] {
  const { next, pick } = generator(seed);
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(pick([" ", "  ", "-", "\n"]));
  return Array.from({ length: count }, (_, i) =>
    info(`${Array.from({ length: 8 }, () => pick([..."0123456789abcdef"])).join("")}-${i}`, {
      name: next() < 0.4 ? words(1 + Math.floor(next() * 4)) : next() < 0.1 ? "   " : undefined,
      cwd: pick(["/home/dev/webshop", "/home/dev/tools/logcat", "/srv/api-v2", "/tmp/x y", ""]),
      minutes: Math.floor(next() * 40),
      allMessagesText: words(Math.floor(next() * 10)),
    }));
}

const QUERIES = ["login", "LOGIN bug", '"node cve"', '"node   cve" fix', 'foo "bar', 'a"b c"d', "re:log.n", "re:(", "re:", "cfg", "lgn", "webshop", "wbs",
  "v2", "2v", "api2", "dev tools", "x", "日本", "ünï", "src/app", "a-b fix", "zzz", "ld", "c", '"" login', "re:^cart", "  ", "-", "ap"];

test("scores and rankings equal pi 1.6's session-selector-search on generated lists", { skip: isNode ? false : "the oracle imports pi's Node package" }, async () => {
  const pi = await import("../../../node_modules/@earendil-works/pi-coding-agent/dist/modes/interactive/components/session-selector-search.js");
  for (const seed of [1, 7, 42]) {
    const sessions = generatedSessions(seed, 150);
    for (const query of QUERIES) {
      const parsed = parseQuery(query);
      for (const session of sessions) {
        const theirs = pi.matchSession(session, pi.parseSearchQuery(query));
        const ours = scoreSession(session, parsed);
        if (query.trim()) assert.deepEqual(ours === undefined ? { matches: false, score: 0 } : { matches: true, score: ours }, theirs, `${query} on ${session.id}`);
      }
      for (const mode of ["relevance", "recent"] as const) {
        const expected = pi.filterAndSortSessions(sessions, query, mode, "all").map((s: SessionInfo) => s.id);
        assert.deepEqual(searchSessions(sessions, query, mode === "recent").sessions.map((s) => s.id), expected, `${query} (${mode}, seed ${seed})`);
      }
    }
  }
});
