/**
 * The SQLite store's folders of the quick check: their stamps come through an index of their own
 * (the names, up to 4 KB a folder, are not read for them), and each folder's names and count only
 * when asked for. Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { openRawSqlite, sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

test(`SQLite reads the folders' stamps through their index, and their names and counts when asked (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-folders-"));
  const path = join(dir, "catalog.sqlite");
  try {
    const store = await openSqliteStore(path);
    const names = Array.from({ length: 200 }, (_, i) => `2026-01-01T00-00-${String(i).padStart(3, "0")}Z_session.jsonl`);
    await store.saveFolders([
      { path: "/s/--a--", mtimeMs: 1000, listedMs: 5000, names },
      { path: "/s/--b--", mtimeMs: 2000, listedMs: 6000, names: [] },
    ], [], new Map([["docs@2", 7000]]));
    store.close();

    const raw = await openRawSqlite(path);
    try {
      const plan = raw.prepare("EXPLAIN QUERY PLAN SELECT path, mtime, listed, digest FROM folders").values().map((row) => String(row.at(-1))).join("\n");
      assert.match(plan, /COVERING INDEX folders_digests/);
    } finally {
      raw.close();
    }

    const again = await openSqliteStore(path);
    try {
      const snapshot = await again.loadFolders();
      assert.deepEqual(snapshot.fullChecks, new Map([["docs@2", 7000]]));
      const [a, b] = ["/s/--a--", "/s/--b--"].map((folder) => snapshot.folders.get(folder)!);
      assert.deepEqual([a.mtimeMs, a.listedMs, b.mtimeMs, b.listedMs], [1000, 5000, 2000, 6000]);
      assert.deepEqual([a.count, b.count], [200, 0]);
      assert.deepEqual(a.names, names);
      assert.deepEqual(b.names, []);
    } finally {
      again.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
