/**
 * A cold refresh of the listing rows reads and stores the changed files in their paths' order,
 * whatever order the listing gives them in (newest name first): the SQLite tables keyed by path
 * are then filled at their end, pages full, where a listing's order left them half empty. It
 * looks up no stored record of a file the check found without one; an appended file's record
 * is still loaded (and only its new lines read).
 * Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

const SESSIONS = "/agent/sessions";

test(`a cold refresh of the listing rows stores its files in their paths' order (${driver})`, { skip }, async () => {
  const fs = new MemoryFileSystem();
  const paths: string[] = [];
  for (const folder of ["--work-q--", "--work-p--"]) {
    await fs.mkdir(`${SESSIONS}/${folder}`, { recursive: true });
    for (const name of ["2026-01-01T10-00-00-000Z_a.jsonl", "2026-01-02T10-00-00-000Z_b.jsonl", "2026-01-03T10-00-00-000Z_c.jsonl"]) {
      const path = `${SESSIONS}/${folder}/${name}`;
      await fs.writeAtomic(path, utf8(sessionText(`${folder}-${name}`, 1)));
      paths.push(path);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "pi-session-rows-order-"));
  const file = join(dir, "catalog.sqlite");
  const store = await openSqliteStore(file);
  try {
    const catalog = new Catalog(fs, { store });
    const listing = await catalog.listFiles(SESSIONS, true);
    assert.notDeepEqual(listing.files, [...paths].sort(), "the listing's own order is another");
    const refreshed = await catalog.refreshRows(listingDigest, listing, SESSIONS);
    assert.equal(refreshed?.counts.read, 6);
    const raw = "Bun" in globalThis ? await openBunSqlite(file) : await openNodeSqlite(file);
    try {
      // Numbered as they were first stored.
      assert.deepEqual(raw.prepare("SELECT path FROM files ORDER BY id").values().map((row) => String(row[0])), [...paths].sort());
    } finally {
      raw.close();
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`a refresh of the listing rows loads the stored records of changed files only where there are some (${driver})`, { skip }, async () => {
  const fs = new MemoryFileSystem();
  await fs.mkdir(`${SESSIONS}/--work-p--`, { recursive: true });
  const paths = ["a", "b", "c"].map((name) => `${SESSIONS}/--work-p--/2026-01-01T10-00-00-000Z_${name}.jsonl`);
  for (const path of paths) await fs.writeAtomic(path, utf8(sessionText(path, 3)));
  const dir = mkdtempSync(join(tmpdir(), "pi-session-rows-cold-"));
  const store = await openSqliteStore(join(dir, "catalog.sqlite"));
  const asked: string[][] = [];
  const spied = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === "loadPaths") return (section: Parameters<typeof target.loadPaths>[0], some: string[]) => (asked.push([...some]), target.loadPaths(section, some));
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as typeof store;
  try {
    const refresh = async () => {
      const catalog = new Catalog(fs, { store: spied, check: "full" });
      return await catalog.refreshRows(listingDigest, await catalog.listFiles(SESSIONS, true), SESSIONS);
    };
    const cold = await refresh();
    assert.equal(cold?.counts.read, 3);
    assert.deepEqual(asked, [], "no record to load in a cold build");

    await fs.append(paths[1], utf8(sessionText(paths[1], 1, { from: 3 })));
    const after = await refresh();
    assert.equal(after?.counts.appended, 1);
    assert.deepEqual(asked, [[paths[1]]]);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
