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

/** A new catalog with folders a and b saved (with `a` and `b` as their names), closed, for `work`; then removed. */
async function withFolders(a: string[], b: string[], work: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-folders-"));
  const path = join(dir, "catalog.sqlite");
  try {
    const store = await openSqliteStore(path);
    await store.saveFolders([
      { path: "/s/--a--", mtimeMs: 1000, listedMs: 5000, names: a },
      { path: "/s/--b--", mtimeMs: 2000, listedMs: 6000, names: b },
    ], [], new Map());
    store.close();
    await work(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test(`SQLite counts a folder's names from its stored count, and from the names where an older pi-session kept none (${driver})`, { skip }, () =>
  withFolders(["1.jsonl", "2.jsonl", "3.jsonl"], ["1.jsonl"], async (path) => {
    const raw = await openRawSqlite(path);
    try {
      const plan = raw.prepare("EXPLAIN QUERY PLAN SELECT path, count FROM folders INDEXED BY folders_counts").values().map((row) => String(row.at(-1))).join("\n");
      assert.match(plan, /COVERING INDEX folders_counts/);
      // Names no longer matching the count kept: the count is what is read, not the names.
      raw.exec("UPDATE folders SET names = 'x.jsonl' WHERE path = '/s/--a--'");
      // A row as an older pi-session wrote it: no count.
      raw.exec("INSERT INTO folders (path, mtime, listed, names, digest) VALUES ('/s/--c--', 3000, 7000, 'a.jsonl' || char(10) || 'b.jsonl', NULL)");
      raw.exec("INSERT INTO folders (path, mtime, listed, names, digest) VALUES ('/s/--d--', 3000, 7000, '', NULL)");
    } finally {
      raw.close();
    }
    const again = await openSqliteStore(path);
    try {
      const { folders } = await again.loadFolders();
      assert.deepEqual(["/s/--a--", "/s/--b--", "/s/--c--", "/s/--d--"].map((folder) => folders.get(folder)!.count), [3, 1, 2, 0]);
    } finally {
      again.close();
    }
  }));

test(`SQLite gives the folders of a catalog kept before counts their counts when it opens it (${driver})`, { skip }, () =>
  withFolders(["1.jsonl", "2.jsonl", "3.jsonl"], [], async (path) => {
    const raw = await openRawSqlite(path);
    try {
      // The layout before counts: no column, no index, nor the mark of a build that sets the file up so.
      raw.exec("DROP INDEX folders_counts");
      raw.exec("ALTER TABLE folders DROP COLUMN count");
      raw.exec("PRAGMA application_id = 0");
    } finally {
      raw.close();
    }
    (await openSqliteStore(path)).close();
    const after = await openRawSqlite(path);
    try {
      assert.deepEqual(after.prepare("SELECT path, count FROM folders ORDER BY path").values(), [["/s/--a--", 3], ["/s/--b--", 0]]);
    } finally {
      after.close();
    }
  }));
