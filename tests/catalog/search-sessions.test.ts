/**
 * `searchSessions()`: the same hits and session details with no store, the file store (both
 * scan) and SQLite (the index); a custom directory's sessions of another cwd left out; an
 * append seen by the next search. And the catalog parts it stands on: `unchanged()` and a
 * `partial` refresh.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { searchSessions } from "../../src/catalog/search-sessions.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { CatalogStore, DocScope } from "../../src/catalog/store.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { type DocBounds, docBounds, docFilter } from "../../src/core/search/doc-filter.ts";
import { parseSearchQuery } from "../../src/core/search/query.ts";
import { sessionText, sqliteBinding, tickingFs, utf8 } from "./_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-search-sessions-"));
after(() => rmSync(work, { recursive: true, force: true }));
const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;

const DIR = "/custom";
const A = `${DIR}/a.jsonl`;
const B = `${DIR}/b.jsonl`;
const C = `${DIR}/c.jsonl`;
const NOT = `${DIR}/not-a-session.jsonl`;
const FILES = [A, B, C, NOT];
const name = (text: string) => JSON.stringify({ type: "session_info", id: `n-${text}`, parentId: null, timestamp: "2025-06-02T00:00:00.000Z", name: text }) + "\n";

async function sessions() {
  const fs = tickingFs();
  await fs.mkdir(DIR, { recursive: true });
  await fs.writeAtomic(A, utf8(sessionText("a", 4, { cwd: "/work/p" }) + name("Alpha")));
  await fs.writeAtomic(B, utf8(sessionText("b", 3, { cwd: "/work/q" })));
  await fs.writeAtomic(C, utf8(sessionText("c", 2, { cwd: "/work/p" })));
  await fs.writeAtomic(NOT, utf8(JSON.stringify({ type: "message", message: { role: "user", content: "question 1 about src/file1.ts" } }) + "\n"));
  return fs;
}

type Fs = Awaited<ReturnType<typeof sessions>>;
const none = () => Promise.resolve(null);
const fileStore = (fs: Fs) => () => Promise.resolve(new FileCatalogStore(fs, "/cache"));

/** One search, as one run of the CLI: a new catalog over a store from `open` (closed after). */
async function search(fs: Fs, open: () => Promise<CatalogStore | null>, source: string, cwdFilter?: string) {
  const catalog = new Catalog(fs, { store: await open() });
  try {
    const { result, sessions } = await searchSessions(catalog, { files: FILES, dirs: [DIR] }, parseSearchQuery(source), {
      limit: 5,
      filter: docFilter({}),
      cwdFilter,
      refresh: { listedDirs: [DIR] },
    });
    const hits = result.hits.map((h) => `${h.path}:${h.line}:${h.entryId}:${h.role}:${h.snippet.text}`);
    const details = [...sessions.values()].map((s) => `${s.path}:${s.id}:${s.cwd}:${s.name ?? "-"}`).sort();
    assert.deepEqual([...sessions.keys()].sort(), [...new Set(result.hits.map((h) => h.path))].sort(), "details for exactly the sessions with hits");
    return { hits, details, more: result.more };
  } finally {
    catalog.close();
  }
}

test("searchSessions() gives the same hits and session details with no store and with the file store", async () => {
  const fs = await sessions();
  for (const source of ["question 1", "ünïcode", "alpha", "nothing-like-this"]) {
    const plain = await search(fs, none, source);
    assert.deepEqual(await search(fs, fileStore(fs), source), plain, source);
    assert.deepEqual(await search(fs, fileStore(fs), source), plain, `${source}, warm`);
  }
  const { hits, details, more } = await search(fs, none, "question");
  assert.equal(more, true);
  assert.ok(!hits.some((h) => h.startsWith(NOT)), "not-a-session file left out");
  assert.ok(details.includes(`${A}:a:/work/p:Alpha`), details.join("\n"));
});

test("searchSessions() keeps only the sessions of cwdFilter", async () => {
  const fs = await sessions();
  const { details } = await search(fs, none, "question", "/work/q");
  assert.deepEqual(details, [`${B}:b:/work/q:-`]);
  assert.deepEqual(await search(fs, fileStore(fs), "question", "/work/q"), await search(fs, none, "question", "/work/q"));
});

test(`searchSessions() through the index (${"driver" in binding ? binding.driver : "no SQLite"}) agrees with the scan, cold, warm and after an append`, { skip: noSqlite }, async () => {
  const fs = await sessions();
  const sqlite = () => openSqliteStore(join(work, "index.sqlite"));
  for (const cwdFilter of [undefined, "/work/p"]) {
    for (const source of ["question 1", "ünïcode", "alpha"]) {
      const scanned = await search(fs, none, source, cwdFilter);
      assert.deepEqual(await search(fs, sqlite, source, cwdFilter), scanned, `${source}, ${cwdFilter}`);
      assert.deepEqual(await search(fs, sqlite, source, cwdFilter), scanned, `${source}, ${cwdFilter}, warm`);
    }
  }
  await fs.append(C, utf8(name("Fresh words")));
  const { hits, details } = await search(fs, sqlite, "fresh");
  assert.deepEqual(hits, (await search(fs, none, "fresh")).hits);
  assert.equal(hits.length, 1);
  assert.deepEqual(details, [`${C}:c:/work/p:Fresh words`]);
});

test("Catalog.unchanged() is true only when a refresh would change nothing, and false for a store without stamps", { skip: noSqlite }, async () => {
  const fs = await sessions();
  const store = await openSqliteStore(join(work, "unchanged.sqlite"));
  const fresh = () => new Catalog(fs, { store });
  try {
    const files = [A, B, C];
    assert.equal(await fresh().unchanged(docsDigest, files), false, "nothing stored yet");
    await fresh().refresh([docsDigest], [...files, `${DIR}/gone.jsonl`], { listedDirs: [DIR] });
    assert.equal(await fresh().unchanged(docsDigest, files, { listedDirs: [DIR] }), true);
    assert.equal(await fresh().unchanged(docsDigest, [A, B], { listedDirs: [DIR] }), false, "C's record would be dropped");
    assert.equal(await fresh().unchanged(docsDigest, [A, B]), true, "outside the listed dirs nothing is dropped");
    assert.equal(await fresh().unchanged(docsDigest, [...files, `${DIR}/new.jsonl`]), false, "a file without a record");
    await fs.append(B, utf8(name("later")));
    assert.equal(await fresh().unchanged(docsDigest, files), false, "an append");
    assert.equal(await new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") }).unchanged(docsDigest, files), false);
  } finally {
    store.close();
  }
});

test("a partial refresh loads and gives only the files asked for, the same records as a full one", { skip: noSqlite }, async () => {
  const fs = await sessions();
  const store = await openSqliteStore(join(work, "partial.sqlite"));
  try {
    const full = await new Catalog(fs, { store }).refresh([listingDigest], FILES, { listedDirs: [DIR] });
    await fs.append(A, utf8(name("Renamed")));
    const partial = await new Catalog(fs, { store }).refresh([listingDigest], [A, C], { partial: true });
    assert.deepEqual([...partial.records(listingDigest).keys()].sort(), [A, C]);
    assert.deepEqual(partial.records(listingDigest).get(C), full.records(listingDigest).get(C));
    assert.equal(partial.counts.appended, 1);
    const again = await new Catalog(fs, { store }).refresh([listingDigest], FILES, { listedDirs: [DIR] });
    assert.equal(again.counts.unchanged, FILES.length);
    assert.deepEqual(again.records(listingDigest).get(A), partial.records(listingDigest).get(A));
  } finally {
    store.close();
  }
});

test(`searchSessions() asks the index (${"driver" in binding ? binding.driver : "no SQLite"}) for the documents of its scope: its folders, or its files`, { skip: noSqlite }, async () => {
  const fs = await sessions();
  const store = await openSqliteStore(join(work, "scoped.sqlite"));
  const asked: (DocScope | undefined)[] = [];
  const given: (DocBounds | undefined)[] = [];
  const spied = new Proxy(store, {
    get(target, name) {
      if (name === "searchDocs") return (e: string, offset: number, limit: number, within?: DocScope, bounds?: DocBounds) => (asked.push(within), given.push(bounds), target.searchDocs!(e, offset, limit, within, bounds));
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const catalog = new Catalog(fs, { store: spied });
  try {
    const cases = [
      [{ files: FILES, dirs: [DIR] }, undefined, { dirs: [DIR] }, [A, B, C]],
      [{ files: [B], dirs: [] }, undefined, { paths: [B] }, [B]],
      // A cwd filter: the sessions of that cwd, not the folder of every one.
      [{ files: FILES, dirs: [DIR] }, "/work/p", { paths: [A, C] }, [A, C]],
    ] as const;
    for (const [scope, cwdFilter, within, found] of cases) {
      asked.length = 0;
      const { result } = await searchSessions(catalog, { files: [...scope.files], dirs: [...scope.dirs] }, parseSearchQuery("question"), { limit: 50, filter: docFilter({}), cwdFilter });
      assert.deepEqual(asked.map((w) => w && "paths" in w ? { paths: [...w.paths].sort() } : w), [within]);
      assert.deepEqual([...new Set(result.hits.map((h) => h.path))].sort(), found);
    }
    // The filter's bounds reach the store.
    given.length = 0;
    const bounds = docBounds({ since: { ms: 0 }, roles: ["user"] });
    await searchSessions(catalog, { files: [...FILES], dirs: [DIR] }, parseSearchQuery("question"), { limit: 50, filter: docFilter({}), bounds });
    assert.deepEqual(given, [bounds]);
  } finally {
    catalog.close();
  }
});
