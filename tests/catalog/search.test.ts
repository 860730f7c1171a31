/**
 * Search: the streaming scan and the FTS5 index (where SQLite exists) return exactly the hits
 * a brute-force pass over every entry finds, on generated sessions and on hand-made ones full
 * of unicode and regex special characters; chunk boundaries and appends change nothing.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { Catalog } from "../../src/catalog/catalog.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import type { SearchHit } from "../../src/catalog/search-hit.ts";
import { indexSearch, PAGE_AT_MOST } from "../../src/catalog/search-index.ts";
import { SCAN_COLLECT_DECODED, SCAN_COLLECT_EVERY, scanSearch } from "../../src/catalog/search-scan.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { DocScope, IndexedDoc } from "../../src/catalog/store.ts";
import { docBounds, docFilter, type DocFilterOptions } from "../../src/core/search/doc-filter.ts";
import { entryDocs } from "../../src/core/search/entry-docs.ts";
import { matchText, parseSearchQuery } from "../../src/core/search/query.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sqliteBinding, utf8 } from "./_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-search-"));
after(() => rmSync(work, { recursive: true, force: true }));
const generated = await generateSessions({ dir: join(work, "agent"), count: 80, seed: 5150 });

// Sessions live in memory with small chunks, so lines straddle chunk boundaries.
const fs = new MemoryFileSystem({ chunkSize: 97 });
const files: string[] = [];
for (const path of generated) {
  const target = `/s/${files.length}.jsonl`;
  await fs.mkdir("/s", { recursive: true });
  await fs.writeAtomic(target, readFileSync(path));
  files.push(target);
}

const line = (o: object) => JSON.stringify(o) + "\n";
const msg = (id: string, role: string, content: unknown, extra = {}) =>
  line({ type: "message", id, parentId: null, timestamp: `2025-07-01T00:00:0${id.length % 10}.000Z`, message: { role, content, timestamp: 1, ...extra } });
const HAND = "/s/hand.jsonl";
await fs.writeAtomic(HAND, utf8(
  line({ type: "session", version: 3, id: "hand", timestamp: "2025-07-01T00:00:00.000Z", cwd: "/h" }) +
    msg("h1", "user", "Open C:\\Users\\me\\file.txt and \"quote\" it") +
    msg("h2", "assistant", [{ type: "text", text: "Found TODO(sam) in a.b*c — naïve Ünïcode" }, { type: "thinking", thinking: "secret plan 🚀" }, { type: "toolCall", id: "t", name: "bash", arguments: { command: "grep -rn 'x|y' ." } }]) +
    msg("h3", "toolResult", [{ type: "text", text: "日本語のセッション\ttab\u0000nul" }]) +
    line({ type: "label", id: "h4", parentId: "h1", timestamp: "2025-07-01T00:00:09.000Z", targetId: "h1", label: "checkpoint ★" }) +
    line({ type: "session_info", id: "h5", parentId: "h4", timestamp: "2025-07-01T00:00:10.000Z", name: "Release prep" }),
));
files.push(HAND);
await fs.writeAtomic("/s/not-a-session.jsonl", utf8(line({ type: "message", message: { role: "user", content: "parser" } })));
files.push("/s/not-a-session.jsonl");

const QUERIES: [string, { regex?: boolean; ignoreCase?: boolean }?][] = [
  ["parser"], ["tree walk"], ['"tree walk"'], ["日本語"], ["セッション"], ["naïve"], ["NAÏVE"], ["ünïcode"], ["C:\\path\\file"],
  ["C:\\Users\\me"], ['"quoted"'], ["quote"], ["a.b*c"], ["TODO(sam)"], ["emoji 🚀"], ["&amp;"], ["<tag>"], ["x|y"], ["line break"],
  ["checkpoint ★"], ["release"], ["ls"], ["grep -rn"], ["long long long"], ["fix", {}], ["TODO\\(\\w+\\)", { regex: true }],
  ["naïve|日本", { regex: true }], ["PARSER", { regex: true, ignoreCase: true }], ["zzzz-no-such"],
];
const FILTERS: DocFilterOptions[] = [{}, { thinking: true }, { roles: ["user", "label"] }];

/** Time bounds through the middle of the generated sessions' entries: a day, an instant, a month, in three zones. */
const TIME_FILTERS: DocFilterOptions[] = (() => {
  const stamps = generated.flatMap((path) => [...readFileSync(path, "utf8").matchAll(/"timestamp":"([^"]+)"/g)].map((m) => m[1])).sort();
  // The entries' days: the seeded clock's few (June 2025) and the day pi's writer stamped most
  // of them on (today, UTC). A day's bounds are a zone's, so each bound is at one end: through the
  // middle entry's day, one in Tokyo left nothing out when run before 15:00 UTC.
  const middle = stamps[stamps.length >> 1];
  const first = stamps[0].slice(0, 10);
  const last = stamps[stamps.length - 1].slice(0, 10);
  return [
    { since: { day: last }, tz: "UTC" },
    { until: { day: first }, tz: "Asia/Tokyo" },
    { since: { ms: Date.parse(middle) }, roles: ["assistant"] },
    { until: { ms: Date.parse(middle) } },
    { since: { day: first.slice(0, 7) }, until: { day: first }, tz: "America/Los_Angeles", thinking: true },
  ];
})();

async function readText(path: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of fs.read(path)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Every hit, by parsing every line of every session (the oracle). */
async function bruteForce(source: string, options: { regex?: boolean; ignoreCase?: boolean }, filter: DocFilterOptions): Promise<string[]> {
  const query = parseSearchQuery(source, options);
  const keep = docFilter(filter);
  const hits: string[] = [];
  for (const path of files) {
    const text = await readText(path);
    const lines = text.split("\n");
    let header = false;
    for (const [i, raw] of lines.entries()) {
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(raw.replace(/^\ufeff/, ""));
      } catch {
        continue;
      }
      if (!header) {
        if (value?.type !== "session") break;
        header = true;
        continue;
      }
      if (typeof value !== "object" || value === null) continue;
      const timestamp = typeof value.timestamp === "string" ? value.timestamp : null;
      for (const doc of entryDocs(value)) {
        if (keep({ ...doc, timestamp }) && matchText(query, doc.text)) hits.push(`${path}:${i + 1}:${value.id ?? null}:${doc.role}:${doc.part}`);
      }
    }
  }
  return hits.sort();
}

const key = (h: SearchHit) => `${h.path}:${h.line}:${h.entryId}:${h.role}:${h.part}`;

test("scanSearch() finds exactly the brute-force hits, for every query and filter", { timeout: 120_000 }, async () => {
  let total = 0;
  for (const [source, options = {}] of QUERIES) {
    for (const filter of FILTERS) {
      const expected = await bruteForce(source, options, filter);
      const { hits, more } = await scanSearch(fs, files, parseSearchQuery(source, options), { limit: 100_000, filter: docFilter(filter) });
      assert.equal(more, false);
      assert.deepEqual(hits.map(key).sort(), expected, `${source} ${JSON.stringify(filter)}`);
      total += hits.length;
    }
  }
  assert.ok(total > 1000, `only ${total} hits in all`);
});

test("scanSearch() with a small limit keeps the newest hits, as a full sort would", async () => {
  for (const source of ["parser", "the", "日本語"]) {
    const all = (await scanSearch(fs, files, parseSearchQuery(source), { limit: 100_000, filter: docFilter({}) })).hits;
    const few = await scanSearch(fs, files, parseSearchQuery(source), { limit: 7, filter: docFilter({}) });
    assert.deepEqual(few.hits.map(key), all.slice(0, 7).map(key), source);
    assert.equal(few.more, all.length > 7);
  }
});

test("search finds the hand-made hits: specials, unicode, thinking on request, roles", async () => {
  const find = async (source: string, options = {}, filter: DocFilterOptions = {}) =>
    (await scanSearch(fs, [HAND], parseSearchQuery(source, options), { limit: 50, filter: docFilter(filter) })).hits.map((h) => `${h.entryId}:${h.part}`);
  assert.deepEqual(await find("C:\\Users\\me\\file.txt"), ["h1:text"]);
  assert.deepEqual(await find('"quote"'), ["h1:text"]);
  assert.deepEqual(await find("TODO(sam) a.b*c"), ["h2:text"]);
  assert.deepEqual(await find("secret"), []);
  assert.deepEqual(await find("secret", {}, { thinking: true }), ["h2:thinking"]);
  assert.deepEqual(await find("セッション"), ["h3:text"]);
  assert.deepEqual(await find("x|y"), ["h2:text"]);
  assert.deepEqual(await find("★"), ["h4:text"]);
  assert.deepEqual(await find("release prep", {}, { roles: ["name"] }), ["h5:text"]);
  assert.deepEqual(await find("TODO\\(\\w+\\)", { regex: true }), ["h2:text"]);
  const [hit] = (await scanSearch(fs, [HAND], parseSearchQuery("naïve"), { limit: 5, filter: docFilter({}) })).hits;
  assert.equal(hit.snippet.text.slice(...hit.snippet.marks[0]), "naïve");
  assert.equal(hit.line, 3);
});

const binding = await sqliteBinding();

test("scanSearch() puts together a line cut over many chunks, and the next files start clean", async () => {
  // Chunks of 97 bytes: the 300 KB line outgrows the first buffer for cut lines, and the files
  // scanned after it (one not ending with a newline) get that buffer back.
  const header = (id: string) => line({ type: "session", version: 3, id, timestamp: "2025-07-01T00:00:00.000Z", cwd: "/h" });
  const long = "/s/cut-long.jsonl";
  await fs.writeAtomic(long, utf8(header("cut-long") + msg("c1", "user", `${"filler ".repeat(43_000)}zebrafinch at the end`) + msg("c2", "user", "zebrafinch again")));
  const open = "/s/cut-open.jsonl";
  await fs.writeAtomic(open, utf8(header("cut-open") + msg("d1", "user", "first zebrafinch") + msg("d2", "user", "last zebrafinch, no newline").trimEnd()));
  const found = async (paths: string[]) => (await scanSearch(fs, paths, parseSearchQuery("zebrafinch"), { limit: 50, filter: docFilter({}) })).hits.map((h) => `${h.path}:${h.line}:${h.entryId}`).sort();
  assert.deepEqual(await found([long]), [`${long}:2:c1`, `${long}:3:c2`]);
  assert.deepEqual(await found([open]), [`${open}:2:d1`, `${open}:3:d2`]);
  assert.deepEqual(await found([open, long, open]), [`${long}:2:c1`, `${long}:3:c2`, `${open}:2:d1`, `${open}:2:d1`, `${open}:3:d2`, `${open}:3:d2`]);
});

test("scanSearch() asks for a young collection after every SCAN_COLLECT_EVERY files, hits unchanged", async () => {
  const many = new MemoryFileSystem();
  await many.mkdir("/m", { recursive: true });
  const paths: string[] = [];
  for (let i = 0; i < 2 * SCAN_COLLECT_EVERY + 3; i++) {
    const path = `/m/${i}.jsonl`;
    await many.writeAtomic(path, utf8(line({ type: "session", version: 3, id: `m${i}`, timestamp: "2025-07-01T00:00:00.000Z", cwd: "/m" }) + msg(`n${i}`, "user", i % 100 === 0 ? "a rare quokka" : "nothing here")));
    paths.push(path);
  }
  const collections: boolean[] = [];
  const { hits } = await scanSearch(many, paths, parseSearchQuery("quokka"), { limit: 50, filter: docFilter({}), collect: (young) => collections.push(young) });
  assert.deepEqual(collections, [true, true]);
  assert.equal(hits.length, Math.ceil(paths.length / 100));
});

test("scanSearch() asks for a full collection after every SCAN_COLLECT_DECODED characters of lines decoded", async () => {
  const big = new MemoryFileSystem();
  const text = `${"padding ".repeat(Math.ceil(SCAN_COLLECT_DECODED / 8 / 20))}wombat`;
  const lines = Array.from({ length: 21 }, (_, i) => msg(`w${i}`, "user", text)).join("");
  await big.writeAtomic("/w.jsonl", utf8(line({ type: "session", version: 3, id: "w", timestamp: "2025-07-01T00:00:00.000Z", cwd: "/w" }) + lines));
  const collections: boolean[] = [];
  const { hits } = await scanSearch(big, ["/w.jsonl"], parseSearchQuery("wombat"), { limit: 50, filter: docFilter({}), collect: (young) => collections.push(young) });
  assert.deepEqual(collections, [false]);
  assert.equal(hits.length, 21);
});

test(`indexSearch() (${"driver" in binding ? binding.driver : "no SQLite"}) agrees with the brute force, also after appends`, { timeout: 180_000, skip: "skip" in binding ? binding.skip : false }, async () => {
  const store = await openSqliteStore(join(work, "catalog.sqlite"));
  const catalog = new Catalog(fs, { store });
  try {
    const compare = async () => {
      const cases = [...QUERIES.flatMap(([source, options]) => FILTERS.map((filter) => [source, options, filter] as const)), ...TIME_FILTERS.map((filter) => ["fix", {}, filter] as const)];
      for (const [source, options = {}, filter] of cases) {
        const expected = await bruteForce(source, options, filter);
        await catalog.refresh([docsDigest], files);
        // The filter's bounds given to the store, as the CLI gives them: the hits stay the same.
        const result = await indexSearch(fs, store, (path) => files.includes(path), parseSearchQuery(source, options), { limit: 100_000, filter: docFilter(filter), bounds: docBounds(filter) }) ??
          await scanSearch(fs, files, parseSearchQuery(source, options), { limit: 100_000, filter: docFilter(filter) });
        assert.deepEqual(result.hits.map(key).sort(), expected, `${source} ${JSON.stringify(filter)}`);
      }
      // The time filters cut the hits: some left out, some kept.
      const all = (await bruteForce("fix", {}, {})).length;
      for (const filter of TIME_FILTERS.slice(0, 4)) {
        const kept = (await bruteForce("fix", {}, filter)).length;
        assert.ok(kept > 0 && kept < all, `${JSON.stringify(filter)}: ${kept} of ${all}`);
      }
    };
    await compare();
    // Appends (one after a line without its newline) and a rewrite are picked up.
    await fs.append(files[0], utf8(msg("app1", "user", "appended parser words")));
    await fs.append(files[1], utf8(msg("app2", "user", "half a line").trimEnd()));
    await fs.append(files[1], utf8(" tree walk\n"));
    await fs.writeAtomic(files[2], utf8((await readText(files[2])).split("\n")[0] + "\n" + msg("new", "user", "rewritten parser")));
    await compare();
    // The limit keeps the newest hits, as the scan does.
    const limited = await indexSearch(fs, store, (path) => files.includes(path), parseSearchQuery("parser"), { limit: 3, filter: docFilter({}) });
    const scanned = await scanSearch(fs, files, parseSearchQuery("parser"), { limit: 3, filter: docFilter({}) });
    assert.deepEqual(limited!.hits.map(key), scanned.hits.map(key));
    assert.equal(limited!.more, true);
    // Candidates come a page at a time, the first twice the hits wanted and one more, each next eight
    // times the last: one file in scope makes most candidates fall out, and more pages asked for.
    const sizes: number[] = [];
    const spied = new Proxy(store, {
      get(target, name) {
        if (name === "searchDocs") return (expression: string, offset: number, limit: number) => (sizes.push(limit), target.searchDocs!(expression, offset, limit));
        const value = Reflect.get(target, name, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    let paged = 0;
    for (const file of files) {
      sizes.length = 0;
      const one = await indexSearch(fs, spied, (path) => path === file, parseSearchQuery("parser"), { limit: 2, filter: docFilter({}) });
      const scannedOne = await scanSearch(fs, [file], parseSearchQuery("parser"), { limit: 2, filter: docFilter({}) });
      assert.deepEqual(one!.hits.map(key), scannedOne.hits.map(key), file);
      assert.equal(sizes[0], 5);
      for (let i = 1; i < sizes.length; i++) assert.equal(sizes[i], Math.min(sizes[i - 1] * 8, PAGE_AT_MOST));
      if (sizes.length > 1) paged++;
    }
    assert.ok(paged > 0, "some file's hits are past the first page");
    // Within a scope the store reads the documents of its files alone (one page, as large as a
    // second would be, holds them all here); the hits are the same.
    const asked: { limit: number; docs: IndexedDoc[] }[] = [];
    const scoped = new Proxy(store, {
      get(target, name) {
        if (name === "searchDocs") {
          return async (expression: string, offset: number, limit: number, within?: DocScope) => {
            const docs = await target.searchDocs!(expression, offset, limit, within);
            asked.push({ limit, docs });
            return docs;
          };
        }
        const value = Reflect.get(target, name, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    for (const [file, within] of files.flatMap((file) => [[file, { paths: [file] }], [file, { dirs: ["/s"] }]] as const)) {
      asked.length = 0;
      const one = await indexSearch(fs, scoped, (path) => path === file, parseSearchQuery("parser"), { limit: 2, filter: docFilter({}), within });
      const scannedOne = await scanSearch(fs, [file], parseSearchQuery("parser"), { limit: 2, filter: docFilter({}) });
      assert.deepEqual(one!.hits.map(key), scannedOne.hits.map(key), file);
      assert.equal(asked[0].limit, 40);
      if ("paths" in within) {
        assert.equal(asked.length, 1, file);
        assert.ok(asked[0].docs.every((doc) => doc.path === file), file);
      }
    }
    asked.length = 0;
    assert.deepEqual((await indexSearch(fs, scoped, () => true, parseSearchQuery("parser"), { limit: 2, filter: docFilter({}), within: { dirs: ["/nowhere"] } }))!.hits, []);
    assert.deepEqual(asked.map((a) => a.docs.length), [0]);
    // A scope the store does not search alone (too many documents): pages as without a scope.
    asked.length = 0;
    const unscoped = new Proxy(scoped, { get: (target, name) => (name === "searchesWithin" ? () => false : Reflect.get(target, name)) });
    const most = await indexSearch(fs, unscoped, (path) => path === files[0], parseSearchQuery("parser"), { limit: 2, filter: docFilter({}), within: { dirs: ["/s"] } });
    assert.deepEqual(most!.hits.map(key), (await scanSearch(fs, [files[0]], parseSearchQuery("parser"), { limit: 2, filter: docFilter({}) })).hits.map(key));
    assert.equal(asked[0].limit, 5);
    assert.ok(asked.flatMap((a) => a.docs).some((doc) => doc.path !== files[0]), "other files' documents too");
  } finally {
    catalog.close();
  }
});
