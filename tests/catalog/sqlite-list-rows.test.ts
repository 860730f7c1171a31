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
import { BULK_ROWS } from "../../src/catalog/sqlite/sqlite-list-runs.ts";
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

/** The listing rows of a store on a fresh catalog, closed and removed when the test ends. */
async function freshRows(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  const store = await openSqliteStore(join(dir, "catalog.sqlite"));
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store.listRows;
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

test("SqliteListRows.projects() adds up the sessions and messages of `ordered` by cwd, one row per project", { skip }, async (t) => {
  const rows = await freshRows(t);
  const at = (path: string, cwd: string, messages: number, id: string | null = path) => ({ ...row(path), cwd, messages, id });
  rows.put([
    at("/s/--p--/a.jsonl", "/w/p", 3),
    at("/s/--p--/b.jsonl", "/w/p", 4),
    // The same cwd in another folder, another cwd in the same folder.
    at("/s/--q--/c.jsonl", "/w/p", 5),
    at("/s/--q--/d.jsonl", "/w/q", 0),
    // Not sessions of the folders asked: no id, a subfolder, a folder not asked.
    at("/s/--q--/e.jsonl", "/w/q", 9, null),
    at("/s/--q--/sub/f.jsonl", "/w/q", 9),
    at("/s/--r--/g.jsonl", "/w/r", 9),
  ], 2);
  rows.put([at("/s/--p--/h.jsonl", "/w/p", 9)], 3);
  const folders = ["/s/--p--", "/s/--q--"];
  const byCwd = (list: Iterable<{ cwd: string; sessions: number; messages: number }>) => [...list].sort((a, b) => (a.cwd < b.cwd ? -1 : 1));
  const expected = new Map<string, { cwd: string; sessions: number; messages: number }>();
  for (const r of rows.ordered(2, folders, "modified", false)) {
    const count = expected.get(r.cwd) ?? expected.set(r.cwd, { cwd: r.cwd, sessions: 0, messages: 0 }).get(r.cwd)!;
    count.sessions++;
    count.messages += r.messages;
  }
  assert.deepEqual(byCwd(rows.projects(2, folders)), [{ cwd: "/w/p", sessions: 3, messages: 12 }, { cwd: "/w/q", sessions: 1, messages: 0 }]);
  assert.deepEqual(byCwd(rows.projects(2, folders)), byCwd(expected.values()));
});

test("SqliteListRows.orderedColumns() gives the sessions of `ordered` in the same order, as columns (the name, else the first message, as the title)", { skip }, async (t) => {
  const rows = await freshRows(t);
  const at = (path: string, modified: number, messages: number, more: Partial<ListRow> = {}) => ({ ...row(path), modified, messages, cwd: `/w/${path.split("/")[2]}`, first: `first of ${path}`, ...more });
  rows.put([
    // Ties of time across folders and within one (then the folders' order, then by path, last first).
    at("/s/--p--/a.jsonl", 5, 3),
    at("/s/--p--/b.jsonl", 5, 7, { name: "named b" }),
    at("/s/--q--/c.jsonl", 5, 7, { name: "" }),
    at("/s/--q--/d.jsonl", 9, 1),
    at("/s/--r--/e.jsonl", 1, 2),
    // Not sessions of the folders asked: no id, a subfolder, a folder not asked.
    at("/s/--q--/f.jsonl", 9, 9, { id: null }),
    at("/s/--q--/sub/g.jsonl", 9, 9),
    at("/s/--x--/h.jsonl", 9, 9),
  ], 2);
  for (const folders of [["/s/--q--", "/s/--p--", "/s/--r--"], ["/s/--p--", "/s/--q--", "/s/--r--"]]) {
    for (const order of ["modified", "messages"] as const) {
      const expected = { ids: [] as string[], cwds: [] as string[], titles: [] as string[], modified: [] as number[], messages: [] as number[] };
      for (const r of rows.ordered(2, folders, order, false)) {
        expected.ids.push(r.id);
        expected.cwds.push(r.cwd);
        expected.titles.push(r.name ?? r.first);
        expected.modified.push(r.modified);
        expected.messages.push(r.messages);
      }
      assert.equal(expected.ids.length, 5);
      assert.deepEqual(rows.orderedColumns(2, folders, order), expected, `${order} over ${folders.join(", ")}`);
    }
  }
});

test("SqliteListRows.tableColumns() gives the sessions of `orderedColumns`, in its order through `order`, the titles as their UTF-8 bytes", { skip }, async (t) => {
  const rows = await freshRows(t);
  const at = (path: string, modified: number, messages: number, more: Partial<ListRow> = {}) => ({ ...row(path), modified, messages, cwd: `/w/${path.split("/")[2]}`, first: `first of ${path} ✓`, ...more });
  rows.put([
    // Ties of time across folders and within one (then the folders' order, then by path, last first).
    at("/s/--p--/a.jsonl", 5, 3, { cwd: "/w/another" }),
    at("/s/--p--/b.jsonl", 5, 7, { name: "named b 日本語" }),
    at("/s/--q--/c.jsonl", 5, 7, { name: "" }),
    at("/s/--q--/d.jsonl", 9, 1, { first: "line\nbreak \u202e" }),
    at("/s/--r--/e.jsonl", 1, 2),
    // Ids of other lengths and characters, a time before 1970, many messages.
    at("/s/--r--/i.jsonl", -5, 123456789012, { id: "ü日本" }),
    at("/s/--r--/j.jsonl", 1, 0, { id: "x" }),
    // Not sessions of the folders asked: no id, a subfolder, a folder not asked; and a folder of none.
    at("/s/--q--/f.jsonl", 9, 9, { id: null }),
    at("/s/--q--/sub/g.jsonl", 9, 9),
    at("/s/--x--/h.jsonl", 9, 9),
  ], 2);
  const decoder = new TextDecoder();
  for (const folders of [["/s/--q--", "/s/--p--", "/s/--e--", "/s/--r--"], ["/s/--p--", "/s/--q--", "/s/--r--"]]) {
    // Room made at first for none, too few and too many sessions.
    for (const [order, room] of [["modified", 0], ["messages", 0], ["modified", 2], ["messages", 100]] as const) {
      const table = rows.tableColumns(2, folders, order, room)!;
      assert.equal(table.ids.length, 7);
      const got = { ids: [] as string[], cwds: [] as string[], titles: [] as string[], modified: [] as number[], messages: [] as number[] };
      for (const i of table.order) {
        got.ids.push(table.ids[i]);
        got.cwds.push(table.cwds[i]);
        got.titles.push(decoder.decode(table.titles[table.chunk[i]].subarray(table.start[i], table.end[i])));
        got.modified.push(table.modified[i]);
        got.messages.push(table.messages[i]);
      }
      assert.deepEqual(got, rows.orderedColumns(2, folders, order), `${order} over ${folders.join(", ")}`);
    }
  }
  // A folder whose one title is empty: its run of bytes is empty, not missing.
  rows.put([at("/s/--y--/z.jsonl", 3, 0, { first: "", cwd: "/w/y" })], 2);
  const empty = rows.tableColumns(2, ["/s/--y--"], "modified")!;
  assert.deepEqual([empty.ids, empty.cwds, [...empty.start], [...empty.end], empty.titles.map((run) => run.length)], [["/s/--y--/z.jsonl"], ["/w/y"], [0], [0], [0]]);
  // A time that is not a whole number (never written: times are whole milliseconds): no columns, the caller reads text.
  rows.put([at("/s/--r--/k.jsonl", 1.5, 0)], 2);
  assert.equal(rows.tableColumns(2, ["/s/--r--"], "modified"), undefined);
});

test("SqliteListRows.tableColumns() keeps each folder's runs, till a row of that folder is written by anyone", { skip }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-list-rows-"));
  const path = join(dir, "catalog.sqlite");
  const store = await openSqliteStore(path);
  const raw = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
  t.after(() => {
    raw.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const rows = store.listRows;
  const folders = ["/s/--p--", "/s/--q--", "/s/--r--"];
  const at = (path: string, messages: number) => ({ ...row(path), messages, modified: messages, first: `first of ${path}` });
  rows.put([at("/s/--p--/a.jsonl", 1), at("/s/--p--/b.jsonl", 2), at("/s/--q--/c.jsonl", 3), at("/s/--r--/d.jsonl", 4)], 2);
  const kept = () => raw.prepare("SELECT DISTINCT folder FROM list_runs ORDER BY folder").all().map((r) => String(r.folder));
  const listed = () => {
    const table = rows.tableColumns(2, folders, "modified")!;
    return table.order.map((i) => `${table.ids[i]}:${table.messages[i]}`);
  };
  assert.deepEqual(kept(), [], "nothing kept before a listing asked");
  const first = listed();
  assert.deepEqual(first, ["/s/--r--/d.jsonl:4", "/s/--q--/c.jsonl:3", "/s/--p--/b.jsonl:2", "/s/--p--/a.jsonl:1"]);
  assert.deepEqual(kept(), folders);
  assert.deepEqual(listed(), first, "the same from the kept runs");
  // Kept runs are what the rows give: changed behind the store's back, they are what is listed.
  const numbers = raw.prepare("SELECT numbers FROM list_runs WHERE folder = '/s/--q--'").get()!.numbers as Uint8Array;
  const doubles = new Float64Array(numbers.slice().buffer);
  assert.deepEqual([...doubles], ["/s/--q--/c.jsonl".length, 3, 3, "first of /s/--q--/c.jsonl".length], "id length, time, messages, title length");
  doubles[2] = 77;
  raw.prepare("UPDATE list_runs SET numbers = ? WHERE folder = '/s/--q--'").run(new Uint8Array(doubles.buffer));
  assert.deepEqual(listed(), ["/s/--r--/d.jsonl:4", "/s/--q--/c.jsonl:77", "/s/--p--/b.jsonl:2", "/s/--p--/a.jsonl:1"]);
  // A kept row that is not one `list_runs` holds (numbers of the wrong length) is made again from the rows.
  raw.prepare("UPDATE list_runs SET numbers = ? WHERE folder = '/s/--q--'").run(new Uint8Array(3));
  assert.deepEqual(listed(), first);
  assert.equal((raw.prepare("SELECT numbers FROM list_runs WHERE folder = '/s/--q--'").get()!.numbers as Uint8Array).length, 32);
  // Rows written by another connection, as an older pi-session writes them: an update, a row
  // written over, a row deleted. Each ends its own folder's runs only.
  raw.exec("UPDATE list_rows SET messages = 40, modified = 40 WHERE path = '/s/--p--/a.jsonl'");
  assert.deepEqual(kept(), ["/s/--q--", "/s/--r--"]);
  raw.exec(`INSERT OR REPLACE INTO list_rows (path, version, size, mtime, id, cwd, messages, first, odd, modified)
    VALUES ('/s/--q--/c.jsonl', 2, 10, 1, '/s/--q--/c.jsonl', '/w', 30, 'x', 0, 30)`);
  assert.deepEqual(kept(), ["/s/--r--"]);
  assert.deepEqual(listed(), ["/s/--p--/a.jsonl:40", "/s/--q--/c.jsonl:30", "/s/--r--/d.jsonl:4", "/s/--p--/b.jsonl:2"]);
  raw.exec("DELETE FROM list_rows WHERE path = '/s/--r--/d.jsonl'");
  assert.deepEqual(kept(), ["/s/--p--", "/s/--q--"]);
  assert.deepEqual(listed(), ["/s/--p--/a.jsonl:40", "/s/--q--/c.jsonl:30", "/s/--p--/b.jsonl:2"]);
  // A row in a folder under one (not a session of it) ends that folder's runs, not its parent's.
  rows.put([at("/s/--p--/sub/e.jsonl", 5)], 2);
  assert.deepEqual(kept(), folders);
  // Runs are kept per version: another version's are made anew.
  rows.put([at("/s/--p--/f.jsonl", 6)], 3);
  assert.deepEqual(rows.tableColumns(3, ["/s/--p--"], "modified")!.ids, ["/s/--p--/f.jsonl"]);
  assert.deepEqual(raw.prepare("SELECT folder, version FROM list_runs WHERE folder = '/s/--p--' ORDER BY version").all().map((r) => Number(r.version)), [3]);
  // A bulk write drops every kept run first; one row less, only the folders written.
  listed();
  rows.put(Array.from({ length: BULK_ROWS - 1 }, (_, i) => at(`/s/--x--/${i}.jsonl`, i)), 2);
  assert.deepEqual(kept(), folders);
  rows.remove(Array.from({ length: BULK_ROWS - 1 }, (_, i) => `/s/--x--/${i}.jsonl`));
  assert.deepEqual(kept(), folders);
  rows.put(Array.from({ length: BULK_ROWS }, (_, i) => at(`/s/--x--/${i}.jsonl`, i)), 2);
  assert.deepEqual(kept(), []);
  assert.deepEqual(listed(), ["/s/--p--/a.jsonl:40", "/s/--q--/c.jsonl:30", "/s/--p--/b.jsonl:2"]);
  rows.remove(Array.from({ length: BULK_ROWS }, (_, i) => `/s/--x--/${i}.jsonl`));
  assert.deepEqual(kept(), []);
  listed();
  rows.clear();
  assert.deepEqual(kept(), []);
});
