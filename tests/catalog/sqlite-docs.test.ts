/**
 * The SQLite catalog keeps a document's timestamp as a number where it is as `toISOString`
 * writes it (the smaller row), and as its text otherwise: every timestamp comes back as it was
 * written, and hits come newest first in the texts' order whichever way they are kept.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { docTime, docTimeText } from "../../src/catalog/sqlite/sqlite-docs.ts";
import { textStretches } from "../../src/catalog/sqlite/sqlite-doc-queries.ts";
import type { DocRow } from "../../src/core/digest/docs-digest.ts";
import type { DocScope } from "../../src/catalog/store.ts";
import { openRawSqlite, sqliteBinding } from "./_helpers.ts";
import { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

const ODD = ["2025-06-01T00:00:02Z", "2025-06-01T00:00:01.500+00:00", "2025-02-30T00:00:00.000Z", "+275760-09-13T00:00:00.000Z", "yesterday", "2025-06-01t00:00:01.000Z"];
const PLAIN = ["2025-06-01T00:00:01.000Z", "2025-06-01T00:00:02.999Z", "1970-01-01T00:00:00.000Z", "0001-01-01T00:00:00.000Z", "2025-06-01T00:00:01.001Z", "9999-12-31T23:59:59.999Z"];

test("docTime() keeps toISOString's timestamps as milliseconds, any other text as it is, and docTimeText() gives the text back", () => {
  for (const text of PLAIN) {
    assert.equal(typeof docTime(text), "number", text);
    assert.equal(docTimeText(docTime(text)), text);
  }
  for (const text of ODD) assert.equal(docTime(text), text);
  assert.equal(docTime(null), null);
  assert.equal(docTimeText(null), null);
  assert.equal(docTimeText(BigInt(Date.UTC(2025, 5, 1))), "2025-06-01T00:00:00.000Z");
});

test("textStretches() splits sorted numbers at their widest gaps into at most so many stretches, each number in one", () => {
  assert.deepEqual(textStretches([], 4), []);
  assert.deepEqual(textStretches([7], 4), [[7, 7]]);
  assert.deepEqual(textStretches([1, 2, 3, 100, 101, 5000, 5001, 5002], 3), [[1, 3], [100, 101], [5000, 5002]]);
  assert.deepEqual(textStretches([1, 2, 3, 100, 101, 5000, 5001, 5002], 2), [[1, 101], [5000, 5002]]);
  assert.deepEqual(textStretches([1, 2, 3, 100, 101, 5000, 5001, 5002], 1), [[1, 5002]]);
  assert.deepEqual(textStretches([1, 3, 5, 7], 9), [[1, 1], [3, 3], [5, 5], [7, 7]]);
  // Equal gaps: the first ones split.
  assert.deepEqual(textStretches([1, 3, 5, 7], 2), [[1, 1], [3, 7]]);
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let round = 0; round < 200; round++) {
    const numbers = [...new Set(Array.from({ length: next() % 60 }, () => next() % 5000))].sort((a, b) => a - b);
    const most = 1 + (next() % 10);
    const stretches = textStretches(numbers, most);
    assert.ok(stretches.length <= most);
    assert.deepEqual(numbers.filter((n) => stretches.some(([a, b]) => a <= n && n <= b)), numbers);
    for (let i = 1; i < stretches.length; i++) assert.ok(stretches[i - 1][1] < stretches[i][0]);
  }
});

test(`SQLite search gives every timestamp back as written, newest first in the texts' order, kept as numbers or not (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-doctimes-"));
  const docs = { name: "docs", version: 1 };
  const row = (timestamp: string | null, offset: number): DocRow => ({ entryId: null, timestamp, role: "user", part: "text", text: `flaky test ${offset}`, line: offset, offset, length: 5 } as unknown as DocRow);
  const expected = (stamps: (string | null)[]) =>
    stamps.map((t, i) => ({ t, i })).sort((a, b) => (a.t === b.t ? a.i - b.i : a.t === null ? 1 : b.t === null ? -1 : a.t < b.t ? 1 : -1)).map(({ t }) => t);
  try {
    for (const [what, stamps] of [["all as toISOString writes them", [...PLAIN, null]], ["some not", [...PLAIN, ...ODD, null]]] as const) {
      const path = join(dir, `${what}.sqlite`);
      const store = await openSqliteStore(path);
      try {
        await store.save(docs, { put: [], remove: [], docs: [{ path: "/s/a", from: 0, rows: stamps.map((t, i) => row(t, i)) }] });
        const hits = await store.searchDocs!('"flaky"', 0, 100);
        assert.deepEqual(hits.map((hit) => hit.timestamp), expected([...stamps]), what);
        // Paged as one page.
        const paged = [...await store.searchDocs!('"flaky"', 0, 5), ...await store.searchDocs!('"flaky"', 5, 100)];
        assert.deepEqual(paged, hits, what);
        // Within the file's folder: the same.
        const within = { dirs: ["/s"] };
        assert.deepEqual([...await store.searchDocs!('"flaky"', 0, 5, within), ...await store.searchDocs!('"flaky"', 5, 100, within)], hits, what);
        // A time bound leaves out the timestamps kept as numbers outside it, and null ones; those
        // kept as text are the caller's to judge.
        const bounds = { fromMs: Date.parse("2025-06-01T00:00:01.000Z"), toMs: Date.parse("2025-06-01T00:00:03.000Z") };
        const kept = hits.filter((hit) => hit.timestamp !== null && (docTime(hit.timestamp) === hit.timestamp || (Date.parse(hit.timestamp) >= bounds.fromMs && Date.parse(hit.timestamp) < bounds.toMs)));
        for (const scope of [undefined, within]) assert.deepEqual(await store.searchDocs!('"flaky"', 0, 100, scope, bounds), kept, `${what} ${JSON.stringify(scope)}`);
      } finally {
        store.close();
      }
      const raw = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
      try {
        const kinds = raw.prepare("SELECT typeof(ts) AS t, count(*) AS n FROM docs GROUP BY 1 ORDER BY 1").all().map((r) => `${r.t} ${r.n}`);
        assert.deepEqual(kinds, [`integer ${PLAIN.length}`, "null 1", ...(what === "some not" ? [`text ${ODD.length}`] : [])], what);
      } finally {
        raw.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite search pages cut inside a run of equal timestamps as the whole order does: by path, line and part after the time (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-docties-"));
  const docs = { name: "docs", version: 1 };
  const stamps = ["2025-06-01T00:00:02.000Z", "2025-06-01T00:00:01.000Z", null];
  // Three files, each with uses at three times (one null), both parts, some texts shared between files.
  const rowsOf = (file: number): DocRow[] =>
    Array.from({ length: 9 }, (_, i) => ({
      entryId: null,
      timestamp: stamps[(i + file) % 3],
      role: "user",
      part: i % 2 === 0 ? "text" : "thinking",
      text: `flaky run ${i % 4}`,
      line: 10 - i,
      offset: i * 100,
      length: 5,
    }) as unknown as DocRow);
  const paths = ["/s/b", "/s/a", "/s/c"];
  const all = paths.flatMap((path, file) => rowsOf(file).map((row) => ({ path, ...row })));
  const rank = (t: string | null) => (t === null ? "" : t);
  const order = [...all].sort((x, y) =>
    rank(y.timestamp).localeCompare(rank(x.timestamp)) || x.path.localeCompare(y.path) || x.line - y.line || x.part.localeCompare(y.part)
  ).map((row) => `${row.path}:${row.offset}`);
  const store = await openSqliteStore(join(dir, "catalog.sqlite"));
  try {
    await store.save(docs, { put: [], remove: [], docs: paths.map((path, file) => ({ path, from: 0, rows: rowsOf(file) })) });
    const page = async (offset: number, limit: number) => (await store.searchDocs!('"flaky"', offset, limit)).map((hit) => `${hit.path}:${hit.offset}`);
    assert.deepEqual(await page(0, 100), order);
    for (let offset = 0; offset <= order.length; offset++) {
      for (const limit of [1, 2, 3, 5, 8, 30]) assert.deepEqual(await page(offset, limit), order.slice(offset, offset + limit), `${limit} from ${offset}`);
    }
    // Within a scope: its files' documents alone, in the same order, paged the same way.
    const scopes: DocScope[] = [{ paths: ["/s/c", "/s/a"] }, { paths: ["/s/b"] }, { dirs: ["/s"] }, { dirs: ["/s/a"] }, { paths: [] }];
    for (const within of scopes) {
      const kept = order.filter((key) => "dirs" in within ? within.dirs.some((dir) => key.startsWith(dir + "/")) : within.paths.some((path) => key.startsWith(path + ":")));
      const scoped = async (offset: number, limit: number) => (await store.searchDocs!('"flaky"', offset, limit, within)).map((hit) => `${hit.path}:${hit.offset}`);
      for (let offset = 0; offset <= kept.length; offset++) {
        for (const limit of [1, 3, 30]) assert.deepEqual(await scoped(offset, limit), kept.slice(offset, offset + limit), `${JSON.stringify(within)} ${limit} from ${offset}`);
      }
    }
  } finally {
    store.close();
  }
  // A catalog made with the index of texts alone gets the index with timestamps when it opens.
  const indexes = async (change?: string) => {
    const raw = "Bun" in globalThis ? await openBunSqlite(join(dir, "catalog.sqlite")) : await openNodeSqlite(join(dir, "catalog.sqlite"));
    try {
      if (change) raw.exec(change);
      return raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'docs' ORDER BY name").all().map((r) => String(r.name));
    } finally {
      raw.close();
    }
  };
  try {
    assert.deepEqual(await indexes("DROP INDEX docs_text_ts; CREATE INDEX docs_text ON docs (text); PRAGMA application_id = 0"), ["docs_file", "docs_odd_ts", "docs_text"]);
    const reopened = await openSqliteStore(join(dir, "catalog.sqlite"));
    try {
      assert.deepEqual((await reopened.searchDocs!('"flaky"', 4, 7)).map((hit) => `${hit.path}:${hit.offset}`), order.slice(4, 11));
    } finally {
      reopened.close();
    }
    assert.deepEqual(await indexes(), ["docs_file", "docs_odd_ts", "docs_text_ts"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite search within a scope of every size (small, up to a quarter of the documents, more) gives its files' documents in the whole order (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip, timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-docscopes-"));
  const docs = { name: "docs", version: 1 };
  // Few texts, many uses: 10,500 documents under /s (past the small scopes), 33,000 under /t;
  // 1,000 times, each in every file (the order goes on by path).
  const rowsOf = (n: number): DocRow[] =>
    Array.from({ length: n }, (_, i) => ({
      entryId: null,
      timestamp: new Date(Date.UTC(2025, 0, 1) + ((i * 7) % 1000) * 1000).toISOString(),
      role: "user",
      part: "text",
      text: i % 3 === 0 ? `flaky run ${i % 5}` : `steady run ${i % 5}`,
      line: i + 1,
      offset: i * 10,
      length: 5,
    }) as unknown as DocRow);
  const sizes = { "/s/a": 500, "/s/b": 10_000, "/t/c": 16_500, "/t/d": 16_500 };
  const store = await openSqliteStore(join(dir, "catalog.sqlite"));
  try {
    await store.save(docs, { put: [], remove: [], docs: Object.entries(sizes).map(([path, n]) => ({ path, from: 0, rows: rowsOf(n) })) });
    const key = (hit: { path: string; offset: number }) => `${hit.path}:${hit.offset}`;
    const every = (await store.searchDocs!('"flaky"', 0, 1_000_000)).map(key);
    assert.equal(every.length, Object.values(sizes).reduce((n, size) => n + Math.ceil(size / 3), 0));
    // The last scope is too large for a search of its own: every file's documents come (the
    // caller keeps its scope's); the others get theirs alone.
    const scopes: [DocScope, (key: string) => boolean, boolean][] = [
      [{ paths: ["/s/a"] }, (k) => k.startsWith("/s/a:"), true],
      [{ dirs: ["/s"] }, (k) => k.startsWith("/s/"), true],
      [{ dirs: ["/t"] }, (k) => k.startsWith("/t/"), false],
    ];
    // Bounds of time and role: the documents outside them are left out, whichever way.
    const t0 = Date.UTC(2025, 0, 1);
    const inTime = (hit: { timestamp: string | null }) => hit.timestamp !== null && Date.parse(hit.timestamp) >= t0 + 100e3 && Date.parse(hit.timestamp) < t0 + 200e3;
    const everyHit = await store.searchDocs!('"flaky"', 0, 1_000_000);
    for (const [within, keeps, alone] of scopes) {
      const bounded = (await store.searchDocs!('"flaky"', 0, 1_000_000, within, { fromMs: t0 + 100e3, toMs: t0 + 200e3, roles: ["user", "label"] })).map(key);
      assert.deepEqual(bounded, everyHit.filter((hit) => inTime(hit) && (!alone || keeps(key(hit)))).map(key), `${JSON.stringify(within)} bounded`);
      assert.ok(bounded.length > 0);
      assert.deepEqual(await store.searchDocs!('"flaky"', 0, 10, within, { roles: ["assistant", "bashExecution"] }), [], `${JSON.stringify(within)} roles`);
      const found = (await store.searchDocs!('"flaky"', 0, 1_000_000, within)).map(key);
      assert.deepEqual(found, alone ? every.filter(keeps) : every, JSON.stringify(within));
      for (const [offset, limit] of [[0, 101], [101, 808], [3000, 50]]) {
        assert.deepEqual((await store.searchDocs!('"flaky"', offset, limit, within)).map(key), found.slice(offset, offset + limit), `${JSON.stringify(within)} ${limit} from ${offset}`);
      }
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite search asks a prefix word as the index's words it stands for, where they are few, and finds the same (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-prefix-words-"));
  const docs = { name: "docs", version: 1 };
  const texts = ["walk", "the walker", "walked home", "walks", "a wall", "zeta", ...Array.from({ length: 20 }, (_, i) => `zeta${String(i).padStart(2, "0")}`), "über walkway"];
  const rows = texts.map((text, i) => ({ entryId: null, timestamp: `2025-06-01T00:00:${String(i).padStart(2, "0")}.000Z`, role: "user", part: "text", text, line: i + 1, offset: i * 10, length: 5 }) as unknown as DocRow);
  // The expressions the store gives SQLite's full-text index.
  const asked: string[] = [];
  const raw = await openRawSqlite(join(dir, "catalog.sqlite"));
  const db = new Proxy(raw, {
    get(target, name) {
      if (name !== "prepare") return Reflect.get(target, name, target);
      return (sql: string) => {
        const statement = target.prepare(sql);
        if (!sql.includes("MATCH ?1")) return statement;
        return new Proxy(statement, { get: (s, key) => key === "values" ? (...params: unknown[]) => (asked.push(String(params[0])), s.values(...(params as []))) : Reflect.get(s, key, s) });
      };
    },
  });
  const store = new SqliteCatalogStore(db, join(dir, "catalog.sqlite"));
  try {
    await store.save(docs, { put: [], remove: [], docs: [{ path: "/s/a", from: 0, rows }] });
    const found = async (expression: string) => (await store.searchDocs!(expression, 0, 100)).map((doc) => texts[doc.line - 1]).sort();
    const cases: [string, string[], string][] = [
      ['"walk" *', ["the walker", "walk", "walked home", "walks", "über walkway"], '("walk" OR "walked" OR "walker" OR "walks" OR "walkway")'],
      ['"wal" *', ["a wall", "the walker", "walk", "walked home", "walks", "über walkway"], '("walk" OR "walked" OR "walker" OR "walks" OR "walkway" OR "wall")'],
      // Short, of other letters, or of more words than are listed: asked as a prefix.
      ['"wa" *', ["a wall", "the walker", "walk", "walked home", "walks", "über walkway"], '"wa" *'],
      ['"üb" *', ["über walkway"], '"üb" *'],
      ['"zeta" *', texts.filter((text) => text.startsWith("zeta")).sort(), '"zeta" *'],
      ['"the" AND "walk" *', ["the walker"], '"the" AND ("walk" OR "walked" OR "walker" OR "walks" OR "walkway")'],
    ];
    for (const [expression, expected, sent] of cases) {
      asked.length = 0;
      assert.deepEqual(await found(expression), expected, expression);
      assert.deepEqual(asked, [sent], expression);
      // Within a scope too.
      assert.deepEqual((await store.searchDocs!(expression, 0, 100, { dirs: ["/s"] })).map((doc) => texts[doc.line - 1]).sort(), expected, expression);
    }
    // A prefix no word has: nothing is asked, nothing found.
    asked.length = 0;
    assert.deepEqual(await found('"walk" AND "qqq" *'), []);
    assert.deepEqual(asked, []);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
