/**
 * The SQLite catalog keeps each path once, as a number the records, header facts and documents
 * refer to: a path's number outlives the removal of its record from one section while another
 * section or the full-text documents still use it, and is forgotten with the last use.
 * Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import type { CatalogRecord } from "../../src/catalog/store.ts";
import { sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

function record(path: string, n: number): CatalogRecord {
  const state = { header: { id: `id-${n}`, cwd: "/p" }, rejected: false, data: { rows: [] } };
  return { path, size: 100 + n, mtimeMs: 1748772000000 + n, end: 100 + n, lines: n, headHash: "0123456789abcdef", tailHash: "fedcba9876543210", headerId: `id-${n}`, state };
}

test(`SQLite forgets a path's number with its last record and documents, not before (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-files-"));
  const path = join(dir, "catalog.sqlite");
  const numbered = async () => {
    const raw = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    try {
      return raw.prepare("SELECT path FROM files ORDER BY path").values().map((row) => String(row[0]));
    } finally {
      raw.close();
    }
  };
  const listing = { name: "listing", version: 1 };
  const usage = { name: "usage", version: 1 };
  const docs = { name: "docs", version: 1 };
  const store = await openSqliteStore(path);
  try {
    const doc = { entryId: "e1", timestamp: "2025-06-01T00:00:00.000Z", role: "user", part: "text" as const, text: "the parser", line: 1, offset: 0, length: 5 };
    await store.save(listing, { put: [record("/s/a", 1), record("/s/b", 2)], remove: [] });
    await store.save(usage, { put: [record("/s/a", 3)], remove: [] });
    if (store.supportsDocs) await store.save(docs, { put: [], remove: [], docs: [{ path: "/s/a", from: 0, rows: [doc] }] });
    assert.deepEqual(await numbered(), ["/s/a", "/s/b"]);

    await store.save(listing, { put: [], remove: ["/s/a", "/s/b", "/s/never"] });
    assert.deepEqual(await numbered(), ["/s/a"], "usage still has /s/a");
    assert.deepEqual([...(await store.load(usage)).values()], [record("/s/a", 3)]);
    await store.save(usage, { put: [], remove: ["/s/a"] });
    if (store.supportsDocs) {
      assert.deepEqual(await numbered(), ["/s/a"], "its documents still use it");
      assert.deepEqual((await store.searchDocs!('"parser"', 0, 10)).map((d) => d.path), ["/s/a"]);
      await store.save(docs, { put: [], remove: ["/s/a"] });
    }
    assert.deepEqual(await numbered(), []);

    // Put again: a new number, the same answers.
    await store.save(listing, { put: [record("/s/a", 4)], remove: [] });
    assert.deepEqual([...(await store.loadPaths!(listing, ["/s/a"])).values()], [record("/s/a", 4)]);
    assert.deepEqual(await numbered(), ["/s/a"]);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
