/**
 * The SQLite catalog finds the records of given paths through the paths' index, each record then
 * by its key: never by walking every record of the section, which made a cold build (a hundred
 * paths asked for at a time, 250 times at 25,000 sessions) slower with every record it added.
 * Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteDb } from "../../src/catalog/sqlite/sqlite-db.ts";
import { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { openRawSqlite, sampleRecord, sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

/** A store on a fresh catalog whose prepared statements are written down in `asked`; the raw connection beside it. */
async function askedStore(prefix: string): Promise<{ dir: string; raw: SqliteDb; asked: string[]; store: SqliteCatalogStore }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, "catalog.sqlite");
  const raw: SqliteDb = await openRawSqlite(path);
  const asked: string[] = [];
  const db: SqliteDb = { driver: raw.driver, exec: (sql) => raw.exec(sql), prepare: (sql) => (asked.push(sql), raw.prepare(sql)), close: () => raw.close() };
  return { dir, raw, asked, store: new SqliteCatalogStore(db, path) };
}

test(`SQLite loads the records of a hundred paths through the paths' index, not by walking the section (${driver})`, { skip }, async () => {
  const { dir, raw, asked, store } = await askedStore("pi-session-load-paths-");
  try {
    const section = { name: "listing", version: 1 };
    const paths = Array.from({ length: 300 }, (_, n) => `/s/p${String(n).padStart(3, "0")}.jsonl`);
    await store.save(section, { put: paths.map((p, n) => sampleRecord(p, n)), remove: [] });
    asked.length = 0;
    const wanted = [...paths.slice(0, 99), "/s/new.jsonl"];
    const found = await store.loadPaths(section, wanted);
    assert.deepEqual([...found.keys()].sort(), paths.slice(0, 99));
    const queries = asked.filter((sql) => /\bIN \(/.test(sql));
    assert.equal(queries.length, 1);
    const plan = raw.prepare(`EXPLAIN QUERY PLAN ${queries[0]}`).all().map((row) => String(row.detail));
    const ofRecords = plan.filter((line) => /\brecords\b|\br\b/.test(line));
    assert.ok(ofRecords.length > 0, plan.join("\n"));
    for (const line of ofRecords) assert.match(line, /file=\?/, `a record is found by its key, not by a walk: ${plan.join(" | ")}`);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite loads the stamps of folder after folder with one statement, from an index that covers them: no record is read (${driver})`, { skip }, async () => {
  const { dir, raw, asked, store } = await askedStore("pi-session-load-stamps-");
  try {
    const section = { name: "listing", version: 1 };
    const folders = ["/s/a", "/s/b", "/s/c"];
    const paths = folders.flatMap((folder) => Array.from({ length: 20 }, (_, n) => `${folder}/p${String(n).padStart(2, "0")}.jsonl`));
    await store.save(section, { put: paths.map((p, n) => sampleRecord(p, n)), remove: [] });
    asked.length = 0;
    const found = new Map<string, { size: number; mtimeMs: number }>();
    // A full check asks folder by folder (covered-check.ts).
    for (const folder of folders) for (const [p, stamp] of await store.loadStampsIn(section, [folder])) found.set(p, stamp);
    assert.deepEqual([...found.keys()].sort(), paths);
    assert.deepEqual(found.get(paths[3]), { size: sampleRecord(paths[3], 3).size, mtimeMs: sampleRecord(paths[3], 3).mtimeMs });
    const queries = asked.filter((sql) => /\bFROM files f\b/.test(sql));
    assert.equal(queries.length, 1, `prepared once for ${folders.length} folders: ${asked.join(" | ")}`);
    const plan = raw.prepare(`EXPLAIN QUERY PLAN ${queries[0]}`).all().map((row) => String(row.detail));
    const ofRecords = plan.filter((line) => /\brecords\b|\br\b/.test(line));
    assert.ok(ofRecords.length > 0, plan.join("\n"));
    for (const line of ofRecords) assert.match(line, /COVERING INDEX/, `a stamp is found in an index, its record not read: ${plan.join(" | ")}`);
    // By name: the same stamps, each by its path past the folder, through the same index.
    asked.length = 0;
    for (const folder of folders) {
      const byName = await store.loadNamesIn(section, folder);
      assert.deepEqual([...byName].map(([name, stamp]) => [`${folder}/${name}`, stamp]).sort(), [...found].filter(([p]) => p.startsWith(`${folder}/`)).sort());
    }
    const named = asked.filter((sql) => /\bFROM files f\b/.test(sql));
    assert.equal(named.length, 1, `prepared once for ${folders.length} folders: ${asked.join(" | ")}`);
    const namePlan = raw.prepare(`EXPLAIN QUERY PLAN ${named[0]}`).all().map((row) => String(row.detail));
    for (const line of namePlan.filter((line) => /\brecords\b|\br\b/.test(line))) assert.match(line, /COVERING INDEX/, namePlan.join(" | "));
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite gives the ids from one, down, up and above, page after page, each row once, with one statement each way, no record read (${driver})`, { skip }, async () => {
  const { dir, raw, asked, store } = await askedStore("pi-session-ids-from-");
  try {
    const section = { name: "listing", version: 1 };
    // 1,200 files, every 7th a copy of the one before (the same id): past the first pages of 1, 16 and 256 rows.
    const files = Array.from({ length: 1200 }, (_, n) => ({ path: `/s/${n % 3 ? "a" : "b"}/p${String(n).padStart(4, "0")}.jsonl`, id: `id-${String(n - (n % 7 === 6 ? 1 : 0)).padStart(4, "0")}` }));
    await store.save(section, { put: files.map((file, n) => ({ ...sampleRecord(file.path, n), headerId: file.id })), remove: [] });
    // Out of the scope: a path beside `/s`, which the scope's bounds must leave out.
    await store.save(section, { put: [{ ...sampleRecord("/s0/p.jsonl", 0), headerId: "id-0500" }], remove: [] });
    asked.length = 0;
    const pairs = (rows: Iterable<[string, string]>) => [...rows].map(([id, path]) => `${id} ${path}`);
    const byId = files.map((file) => `${file.id} ${file.path}`).sort();
    const up = pairs(store.headerIdsFrom(section, "/s", "", "up"));
    assert.deepEqual([...up].sort(), byId, "every row of the scope, once");
    assert.deepEqual(up.map((pair) => pair.split(" ")[0]), byId.map((pair) => pair.split(" ")[0]), "in the ids' order");
    const from = "id-0600";
    const down = pairs(store.headerIdsFrom(section, "/s", from, "down"));
    assert.deepEqual([...down].sort(), byId.filter((pair) => pair < from));
    assert.deepEqual(down.map((pair) => pair.split(" ")[0]), byId.filter((pair) => pair < from).map((pair) => pair.split(" ")[0]).reverse());
    // A lookup that stops early (the first id in scope) reads no further, and the next starts afresh.
    for (const [id] of store.headerIdsFrom(section, "/s", from, "up")) {
      assert.equal(id, from);
      break;
    }
    assert.deepEqual(pairs(store.headerIdsFrom(section, "/s/a", "id-1190", "up")), byId.filter((pair) => pair >= "id-1190" && pair.includes(" /s/a/")));
    // Above: the ids past `from` only, its copies too left out (id-0601 is stored twice).
    const above = pairs(store.headerIdsFrom(section, "/s", "id-0601", "above"));
    const past = byId.filter((pair) => pair.split(" ")[0] > "id-0601");
    assert.deepEqual([...above].sort(), past);
    assert.deepEqual(above.map((pair) => pair.split(" ")[0]), past.map((pair) => pair.split(" ")[0]), "in the ids' order");
    const statements = [...new Set(asked.filter((sql) => /header_id [<>]/.test(sql)))];
    assert.equal(statements.length, 3, statements.join(" | "));
    assert.equal(asked.filter((sql) => /header_id [<>]/.test(sql)).length, 3, "each prepared once");
    for (const sql of statements) {
      const plan = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => String(row.detail));
      const ofRecords = plan.filter((line) => /\brecords\b|\br\b/.test(line));
      assert.ok(ofRecords.length > 0, plan.join("\n"));
      for (const line of ofRecords) assert.match(line, /COVERING INDEX/, `an id and its file are found in the index, the record not read: ${plan.join(" | ")}`);
      assert.ok(!plan.some((line) => /TEMP B-TREE/.test(line)), `in the index's order, not sorted: ${plan.join(" | ")}`);
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite reads a scattered lookup's statements in one read transaction: a write made meanwhile is seen after it, not half-way (${driver})`, { skip }, async () => {
  const { dir, raw, store } = await askedStore("pi-session-reading-together-");
  const path = join(dir, "catalog.sqlite");
  const other = new SqliteCatalogStore(await openRawSqlite(path), path);
  try {
    const section = { name: "listing", version: 1 };
    await store.save(section, { put: [{ ...sampleRecord("/s/a.jsonl", 1), headerId: "id-a" }], remove: [] });
    const ids = () => [...store.headerIdsFrom(section, "/s", "", "up")].map(([id]) => id);
    const seen = store.readingScattered!(() => {
      const before = ids();
      // Another process saves a record between two of the lookups.
      void other.save(section, { put: [{ ...sampleRecord("/s/b.jsonl", 2), headerId: "id-b" }], remove: [] });
      return [before, ids()];
    });
    assert.deepEqual(seen, [["id-a"], ["id-a"]]);
    assert.deepEqual(ids(), ["id-a", "id-b"]);
    assert.equal(raw.prepare("SELECT count(*) AS n FROM records").get()?.n, 2);
  } finally {
    other.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite's search looks for timestamps kept as text through their partial index, not by scanning the index of texts (${driver})`, { skip }, async () => {
  const { dir, raw, asked, store } = await askedStore("pi-session-odd-times-");
  try {
    await store.searchDocs!('"flaky"', 0, 10);
    const odd = asked.filter((sql) => sql.includes("typeof(ts) = 'text'"));
    assert.equal(odd.length, 1, asked.join(" | "));
    const plan = raw.prepare(`EXPLAIN QUERY PLAN ${odd[0]}`).all().map((row) => String(row.detail));
    assert.ok(plan.some((line) => /INDEX docs_odd_ts/.test(line)), plan.join(" | "));
    assert.ok(!plan.some((line) => /docs_text_ts/.test(line)), plan.join(" | "));
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
