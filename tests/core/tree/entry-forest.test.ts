/**
 * Tests for EntryForest: on generated sessions of every shape, the same forest, leaf, labels
 * and number of problems as SessionTree.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EntryForest } from "../../../src/core/tree/entry-forest.ts";
import { type SessionEntry, SessionTree, type SessionTreeNode } from "../../../src/core/mod.ts";
import { at, user } from "../_builders.ts";
import { messyEntries } from "./_messy-entries.ts";

/** A forest as nested `[entry, children]`, the entries themselves (not their ids: ids repeat). */
type Shape = [SessionEntry, Shape[]];

function treeShape(nodes: SessionTreeNode[]): Shape[] {
  return nodes.map((node) => [node.entry, treeShape(node.children)]);
}

function forestShape(forest: EntryForest, nodes: ArrayLike<number>): Shape[] {
  return Array.from(nodes, (node) => [forest.nodes[node], forestShape(forest, forest.childrenOf(node))]);
}

function assertSame(entries: SessionEntry[], what: string): void {
  const tree = new SessionTree(entries);
  const forest = new EntryForest(entries);
  assert.deepEqual(forestShape(forest, forest.roots), treeShape(tree.getTree()), what);
  assert.deepEqual(forest.nodes, [...tree.byId.values()], what);
  assert.deepEqual(forest.ids(), [...tree.byId.keys()], what);
  assert.equal(forest.leafId, tree.leafId, what);
  assert.deepEqual(forest.labels, tree.labels, what);
  assert.equal(forest.issueCount, tree.findIssues().length, what);
}

test("EntryForest holds SessionTree's forest, leaf, labels and problem count on sound sessions", () => {
  for (let seed = 1; seed <= 40; seed++) assertSame(messyEntries(seed, 1 + (seed * 7) % 80, 0), `seed ${seed}`);
});

test("EntryForest holds SessionTree's forest on sessions with cycles, repeated ids and bad links", () => {
  for (let seed = 1; seed <= 300; seed++) assertSame(messyEntries(seed, 1 + (seed * 13) % 90, 0.15 + (seed % 5) / 10), `seed ${seed}`);
});

test("EntryForest of no entries has no roots, no leaf and no problems", () => {
  const forest = new EntryForest([]);
  assert.deepEqual(forest.roots, []);
  assert.equal(forest.leafId, null);
  assert.equal(forest.issueCount, 0);
});

test("EntryForest cuts a two-entry cycle at its first entry, as getTree does", () => {
  const entries = [user("a", "b", "one"), user("b", "a", "two"), user("c", null, "root")];
  const forest = new EntryForest(entries);
  assert.deepEqual(forestShape(forest, forest.roots), [[entries[2], []], [entries[0], [[entries[1], []]]]]);
  assert.equal(forest.issueCount, 1);
  assertSame(entries, "cycle");
});

test("EntryForest sorts children by time, file order for equal times", () => {
  const entries = [user("r", null, "root", { timestamp: at(0) }), user("x", "r", "late", { timestamp: at(9) }), user("y", "r", "early", { timestamp: at(1) }), user("z", "r", "same", { timestamp: at(1) })];
  const forest = new EntryForest(entries);
  assert.deepEqual(Array.from(forest.childrenOf(0), (node) => forest.nodes[node].id), ["y", "z", "x"]);
});
