/**
 * Tests for factRows: on generated sessions of every shape and in every filter, the rows
 * treeRows lays out from the same row facts.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntryForest } from "../../src/core/tree/entry-forest.ts";
import { SessionTree } from "../../src/core/mod.ts";
import { factRows } from "../../src/render/fact-rows.ts";
import { rowFacts, TREE_FILTERS, treeRows } from "../../src/render/tree-rows.ts";
import { messyEntries } from "../core/tree/_messy-entries.ts";

const facts = (entry: Parameters<typeof rowFacts>[0]) => rowFacts(entry, "/home/dev");

test("factRows() gives treeRows()'s rows on sound sessions, in every filter", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const entries = messyEntries(seed, 1 + (seed * 7) % 120, 0);
    for (const filter of TREE_FILTERS) {
      assert.deepEqual(factRows(new EntryForest(entries), { filter, facts }), treeRows(new SessionTree(entries), { filter, facts }), `seed ${seed}, ${filter}`);
    }
  }
});

test("factRows() gives treeRows()'s rows on sessions with cycles, repeated ids and bad links", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const entries = messyEntries(seed, 1 + (seed * 13) % 90, 0.15 + (seed % 5) / 10);
    for (const filter of TREE_FILTERS) {
      assert.deepEqual(factRows(new EntryForest(entries), { filter, facts }), treeRows(new SessionTree(entries), { filter, facts }), `seed ${seed}, ${filter}`);
    }
  }
});

test("factRows() of no entries is no rows", () => {
  assert.deepEqual(factRows(new EntryForest([]), { filter: "default", facts }), []);
});
