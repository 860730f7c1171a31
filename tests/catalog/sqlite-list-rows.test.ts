/**
 * The SQLite store's listing rows (src/catalog/sqlite/sqlite-list-rows.ts): whether any row under
 * a folder is odd or has a bad header (`flags`, asked by every warm `list`) is answered from an
 * index of the flagged rows, not by reading every row. Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ListRow } from "../../src/catalog/list-row.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

function row(path: string, flags: { odd?: boolean; bad?: string } = {}): ListRow {
  return {
    path, size: 10, mtimeMs: 1, id: path, cwd: "/w", name: null, parent: null, created: 1, modified: 2, messages: 1, first: "hi",
    badHeader: flags.bad ?? null, odd: flags.odd ?? false,
  };
}

test("SqliteListRows.flags() tells odd and bad rows under a folder, through the index of flagged rows", { skip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  const path = join(dir, "catalog.sqlite");
  const store = await openSqliteStore(path);
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rows = store.listRows;
  rows.put([row("/s/--p--/a.jsonl"), row("/s/--p--/b.jsonl"), row("/s/--q--/c.jsonl", { odd: true }), row("/s/--r--/d.jsonl", { bad: "no id" })], 2);
  assert.deepEqual(rows.flags(2, "/s/--p--"), { odd: false, bad: false });
  assert.deepEqual(rows.flags(2, "/s/--q--"), { odd: true, bad: false });
  assert.deepEqual(rows.flags(2, "/s/--r--"), { odd: false, bad: true });
  assert.deepEqual(rows.flags(2, "/s"), { odd: true, bad: true });
  assert.deepEqual(rows.flags(3, "/s"), { odd: false, bad: false }, "rows of another version");
  // The question as the store asks it reads the index of flagged rows only.
  const raw = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
  try {
    const sql = "SELECT max(odd) AS odd, max(bad IS NOT NULL) AS bad FROM list_rows WHERE path >= ? AND path < ? AND version = ? AND (odd <> 0 OR bad IS NOT NULL)";
    const plan = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all("/s/", "/s0", 2).map((step) => String(step.detail)).join(" | ");
    assert.match(plan, /USING (COVERING )?INDEX list_rows_flagged/);
  } finally {
    raw.close();
  }
});
