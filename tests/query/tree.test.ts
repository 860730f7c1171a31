/**
 * Tests for the `tree` query's JSON rows: a row's text written directly is what the row object
 * stringified gives, on generated sessions in every filter, and inside the streamed document.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SessionTree } from "../../src/core/mod.ts";
import { treeJson, treeRowJson, treeRowJsonText } from "../../src/query/tree.ts";
import { PrettyJsonArray } from "../../src/render/pretty-json-stream.ts";
import { TREE_FILTERS, treeRows } from "../../src/render/tree-rows.ts";
import { SpanRow } from "../../src/render/tree-layout.ts";
import { messyEntries } from "../core/tree/_messy-entries.ts";

test("treeRowJsonText() writes what stringifying treeRowJson() writes, on generated sessions", () => {
  let rows = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const entries = messyEntries(seed, 1 + (seed * 11) % 70, seed % 3 === 0 ? 0.3 : 0);
    for (const filter of TREE_FILTERS) {
      for (const row of treeRows(new SessionTree(entries), { filter })) {
        const text = treeRowJsonText(row, "    ");
        if (text === undefined) continue;
        rows++;
        assert.equal(text, "    " + JSON.stringify(treeRowJson(row), null, 2).replaceAll("\n", "\n    "), `seed ${seed}, ${filter}`);
      }
    }
  }
  assert.ok(rows > 1000);
});

test("treeRowJsonText() leaves a row whose id is not a string to JSON.stringify", () => {
  const row = new SpanRow(undefined as unknown as string, "message", [{ text: "x", tone: "plain" }], false);
  assert.equal(treeRowJsonText(row, "  "), undefined);
});

test("PrettyJsonArray.itemText() with treeRowJsonText() writes the document JSON.stringify writes", () => {
  const entries = messyEntries(7, 50, 0);
  const tree = new SessionTree(entries);
  const rows = treeRows(tree, { filter: "all" });
  const json = new PrettyJsonArray({ leafId: tree.leafId, filter: "all", rows: [] }, "rows");
  let text = "";
  for (const row of rows) text += json.itemText(treeRowJsonText(row, json.indent)!);
  assert.equal(text + json.end(), JSON.stringify(treeJson(tree.leafId, "all", rows), null, 2));
});
