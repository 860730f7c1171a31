/**
 * The table of a listing read from the catalog's rows (printListedTable) against the table of
 * held sessions (printTable): the same lines, whatever characters the ids are made of.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { OrderedRow } from "../../../src/catalog/list-row.ts";
import { printListedTable, printTable } from "../../../src/cli/commands/list-table.ts";
import type { ListedRows } from "../../../src/query/list-rows.ts";
import { createColors } from "../../../src/render/colors.ts";
import { uniquePrefixes, uniquePrefixesAmong } from "../../../src/render/unique-prefix.ts";

function row(id: string, minute: number): OrderedRow {
  return { path: "", id, cwd: "/work/p", name: null, parent: null, created: null, modified: Date.UTC(2026, 0, 1, 10, minute), messages: minute, first: `question ${minute}` };
}

/** Both tables of `rows` (newest first), every session listed, as `list --all` prints them. */
function bothTables(rows: OrderedRow[]): [string, string] {
  const target = (out: string[]) => ({ colors: createColors(false), width: Infinity, now: new Date(Date.UTC(2026, 0, 2)), home: "/home/u", write: (text: string) => void out.push(text) });
  const listed: ListedRows = {
    rows: () => rows,
    byId: () => [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    listed: undefined,
    shortIds: () => new Map(),
    shortIdsOf: () => Promise.resolve(new Map()),
  };
  const fromRows: string[] = [];
  printListedTable(listed, true, target(fromRows));
  const shorts = uniquePrefixes(rows.map((r) => r.id));
  const held: string[] = [];
  printTable(rows.map((r) => ({ ...r, short: shorts.get(r.id)! })), true, target(held));
  return [fromRows.join(""), held.join("")];
}

test("printListedTable() lays out short ids of wide characters by their width, as printTable() does", () => {
  // The wide ids share 17 characters (33 cells): their short ids are the widest cells of the column.
  const rows = [row(`${"会話ログ".repeat(4)}-aaaa`, 5), row("01a232a0-1", 4), row(`${"会話ログ".repeat(4)}-bbbb`, 3), row("01a232a0-2", 2)];
  const [fromRows, held] = bothTables(rows);
  assert.equal(fromRows, held);
  assert.match(fromRows, /会話ログ会話ログ会話ログ会話ログ-a {2}\/work\/p/);
});

test("printListedTable() lays out short ids of ASCII as printTable() does", () => {
  const rows = [row("01a232a0-4dc1-7700-ac0a-b0d20000001", 4), row("01a232a0-4dc1-7700-ac0a-b0d20000002", 2), row("ffff", 1)];
  const [fromRows, held] = bothTables(rows);
  assert.equal(fromRows, held);
});

test("printListedTable() of one project gives the same table through the ids alone as through every row by id", () => {
  const target = (out: string[]) => ({ colors: createColors(false), width: Infinity, now: new Date(Date.UTC(2026, 0, 2)), home: "/home/u", write: (text: string) => void out.push(text) });
  const here = [row("01a232a0-4dc1-7700-ac0a-b0d20000001", 9), row("01a232a0-4dc1-7700-ac0a-b0d20000777", 7), row("9abc0000", 3)];
  // Other projects' sessions, unshown: one shares 34 characters with a shown id, one has a shown id's id too.
  const there = [{ ...row("01a232a0-4dc1-7700-ac0a-b0d20000002", 8), cwd: "/work/q" }, { ...row("9abc0000", 1), cwd: "/work/q" }, { ...row("77", 2), cwd: "/work/q" }];
  const byId = [...here, ...there].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const table = (withIds: boolean, shorts?: Map<string, string>): string => {
    const out: string[] = [];
    const listed: ListedRows = {
      rows: () => here,
      byId: () => {
        if (shorts) throw new Error("every known id read, though the short ids were given");
        return byId;
      },
      listed: (r) => r.cwd === "/work/p",
      ids: withIds ? () => byId.map((r) => r.id) : undefined,
      shortIds: () => new Map(),
      shortIdsOf: () => Promise.resolve(new Map()),
    };
    printListedTable(listed, false, target(out), shorts);
    return out.join("");
  };
  const throughIds = table(true);
  assert.equal(throughIds, table(false));
  // Given the shown ids' short forms (found through the stored ids nearest each), no id is read.
  const shorts = uniquePrefixesAmong(here.map((r) => r.id), byId.map((r) => r.id));
  assert.equal(table(false, shorts), throughIds);
  // The neighbour of another project lengthens the first id's prefix past the shown ones' own.
  assert.match(throughIds, /01a232a0-4dc1-7700-ac0a-b0d20000001 /);
  assert.equal(throughIds.split("\n").filter(Boolean).length, 3);
});
