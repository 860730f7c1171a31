/**
 * What a save to the SQLite catalog costs beyond its rows: it drops a section's records of other
 * versions before it saves records of its version once per connection (finding them reads every
 * record of the section), again whenever another connection has written since, or the same
 * connection saved another version; and it prepares its statements once, not at every save.
 * Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { SqliteDb } from "../../src/catalog/sqlite/sqlite-db.ts";
import { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { openRawSqlite, sampleRecord, sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

/** A database whose statements are counted by a test of their SQL. */
function counting(db: SqliteDb, counted: (sql: string) => boolean): { db: SqliteDb; count: () => number } {
  let count = 0;
  const prepare = (sql: string) => {
    if (counted(sql)) count++;
    return db.prepare(sql);
  };
  return { db: { driver: db.driver, exec: (sql) => db.exec(sql), prepare, close: () => db.close() }, count: () => count };
}

/** The versions of `section`'s records in the file at `path`, as another connection sees them. */
async function versions(path: string, section: string): Promise<number[]> {
  const raw = await openRawSqlite(path);
  try {
    return raw.prepare("SELECT DISTINCT version FROM records WHERE section = ? ORDER BY version").values(section).map((row) => Number(row[0]));
  } finally {
    raw.close();
  }
}

test(`SQLite looks for a section's records of other versions at its first save, not at every save (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-stale-"));
  const path = join(dir, "catalog.sqlite");
  const { db, count } = counting(await openRawSqlite(path), (sql) => /DELETE FROM records WHERE section = \? AND version <>/.test(sql));
  const store = new SqliteCatalogStore(db, path);
  try {
    const listing = { name: "listing", version: 2 };
    for (let n = 0; n < 5; n++) await store.save(listing, { put: [sampleRecord(`/s/${n}`, n)], remove: [] });
    assert.equal(count(), 1);
    assert.equal((await store.load(listing)).size, 5);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite drops records of another version that another connection wrote between two saves (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-stale-"));
  const path = join(dir, "catalog.sqlite");
  const store = await openSqliteStore(path);
  const older = await openSqliteStore(path);
  try {
    await store.save({ name: "listing", version: 2 }, { put: [sampleRecord("/s/a", 1)], remove: [] });
    // An older pi-session, writing records of the version it knows.
    await older.save({ name: "listing", version: 1 }, { put: [sampleRecord("/s/b", 2)], remove: [] });
    assert.deepEqual(await versions(path, "listing"), [1]);
    await store.save({ name: "listing", version: 2 }, { put: [sampleRecord("/s/c", 3)], remove: [] });
    assert.deepEqual(await versions(path, "listing"), [2]);
    assert.deepEqual([...(await store.load({ name: "listing", version: 2 })).keys()], ["/s/c"]);
  } finally {
    older.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite drops a section's records of the version one connection saved before another (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-stale-"));
  const path = join(dir, "catalog.sqlite");
  const store = await openSqliteStore(path);
  try {
    await store.save({ name: "listing", version: 1 }, { put: [sampleRecord("/s/a", 1)], remove: [] });
    await store.save({ name: "listing", version: 2 }, { put: [sampleRecord("/s/b", 2)], remove: [] });
    assert.deepEqual(await versions(path, "listing"), [2]);
    await store.save({ name: "listing", version: 1 }, { put: [sampleRecord("/s/c", 3)], remove: [] });
    assert.deepEqual(await versions(path, "listing"), [1]);
    await store.save({ name: "usage", version: 1 }, { put: [sampleRecord("/s/c", 4)], remove: [] });
    assert.deepEqual(await versions(path, "listing"), [1], "another section's save leaves them");
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite prepares a save's statements once, not at every save (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-stale-"));
  const path = join(dir, "catalog.sqlite");
  const prepared: string[] = [];
  const { db, count } = counting(await openRawSqlite(path), (sql) => /^(INSERT|DELETE)\b/.test(sql.trim()) && Boolean(prepared.push(sql)));
  const store = new SqliteCatalogStore(db, path);
  try {
    const listing = { name: "listing", version: 2 };
    await store.save(listing, { put: [sampleRecord("/s/first", 0)], remove: ["/s/none"] });
    const first = count();
    // Batches of a cold build: records put, and none of the paths gone has one.
    for (let n = 1; n < 6; n++) await store.save(listing, { put: [sampleRecord(`/s/${n}`, n)], remove: [`/s/gone-${n}`] });
    assert.equal(count(), first, prepared.slice(first).join("\n"));
    assert.equal((await store.load(listing)).size, 6);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
