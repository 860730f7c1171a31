/**
 * Tests for `treeRows` and `renderTreeRow`, the pure layout shared by `tree` and the
 * navigator: nested branches and gutters, fold flags, folds, search, another leaf, very deep trees.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createColors } from "../../src/render/colors.ts";
import { filterTag, renderTreeRow, TREE_FILTERS, treeRows } from "../../src/render/tree-rows.ts";
import { SessionTree } from "../../src/core/mod.ts";
import { assistant, at, label, user } from "../core/_builders.ts";

/**
 * r ─┬─ a ─┬─ a1 ─┬─ a11
 *    │     │      └─ a12
 *    │     └─ a2
 *    └─ b ── b1 ── b2
 */
const tree = new SessionTree([
  user("r", null, "root", { timestamp: at(0) }),
  assistant("a", "r", "A", { timestamp: at(1) }),
  user("a1", "a", "A1", { timestamp: at(2) }),
  user("a2", "a", "A2", { timestamp: at(3) }),
  assistant("b", "r", "B", { timestamp: at(4) }),
  user("b1", "b", "B1", { timestamp: at(5) }),
  user("b2", "b1", "B2", { timestamp: at(6) }),
  user("a11", "a1", "A11", { timestamp: at(7) }),
  user("a12", "a1", "A12", { timestamp: at(8) }),
  label("l", "a12", "a1", "here", { timestamp: at(9) }),
]);

function draw(rows: ReturnType<typeof treeRows>): string[] {
  return rows.map((row) => renderTreeRow(row, Infinity));
}

test("treeRows() nests branch points with gutters, the active child first (checked against pi 1.6)", () => {
  const rows = treeRows(tree, { leafId: "a2" });
  assert.deepEqual(draw(rows), [
    "• user: root",
    "├─ • assistant: A",
    "│  ├─ • user: A2",
    "│  └─ [here] user: A1",
    "│     ├─ user: A11",
    "│     └─ user: A12",
    "└─ assistant: B",
    "      user: B1",
    "      user: B2",
  ]);
  assert.deepEqual(rows.map((r) => [r.entryId, r.parentId, r.depth, r.foldable, r.connectorColumn, r.childCount]), [
    ["r", null, 0, true, -1, 2],
    ["a", "r", 1, true, 1, 2],
    ["a2", "a", 2, false, 4, 0],
    ["a1", "a", 2, true, 4, 2],
    ["a11", "a1", 3, false, 7, 0],
    ["a12", "a1", 3, false, 7, 0],
    ["b", "r", 1, true, 1, 1],
    ["b1", "b", 2, false, -1, 1],
    ["b2", "b1", 2, false, -1, 0],
  ]);
  assert.equal(rows[3].labelTimestamp, at(9));
});

test("treeRows() defaults to the last entry as leaf", () => {
  const rows = treeRows(tree);
  assert.deepEqual(rows.filter((r) => r.onActivePath).map((r) => r.entryId), ["r", "a", "a1", "a12"]);
  assert.deepEqual(rows.slice(0, 4).map((r) => r.entryId), ["r", "a", "a1", "a12"]);
});

test("treeRows() hides the descendants of folded entries", () => {
  const rows = treeRows(tree, { leafId: "a2", folded: new Set(["a1", "b"]) });
  assert.deepEqual(rows.map((r) => r.entryId), ["r", "a", "a2", "a1", "b"]);
});

test("treeRows() search keeps rows whose label, role or text hold every token", () => {
  assert.deepEqual(treeRows(tree, { search: "USER a1" }).map((r) => r.entryId), ["a1", "a12", "a11"]);
  assert.deepEqual(treeRows(tree, { search: "here" }).map((r) => r.entryId), ["a1"]);
  assert.deepEqual(treeRows(tree, { search: "assistant" }).map((r) => r.depthPrefix + r.entryId), ["a", "b"]);
});

test("treeRows() keeps a label visible in labeled-only and all modes", () => {
  assert.deepEqual(treeRows(tree, { filter: "labeled-only" }).map((r) => r.entryId), ["a1"]);
  assert.deepEqual(treeRows(tree, { filter: "all" }).slice(0, 5).map((r) => r.text), ["user: root", "assistant: A", "user: A1", "user: A12", "[label: here]"]);
  assert.deepEqual(TREE_FILTERS.map(filterTag), ["", " [no-tools]", " [user]", " [labeled]", " [all]"]);
});

test("treeRows() marks the active path of a leaf in a parent cycle up to where the cycle is cut", () => {
  // x and y are each other's parent: x, first in the file, becomes a root with y under it.
  const cyclic = new SessionTree([
    user("r", null, "root", { timestamp: at(0) }),
    user("x", "y", "X", { timestamp: at(1) }),
    user("y", "x", "Y", { timestamp: at(2) }),
  ]);
  const rows = treeRows(cyclic);
  assert.deepEqual(rows.map((r) => [r.entryId, r.parentId, r.onActivePath]), [["x", null, true], ["y", "x", true], ["r", null, false]]);
});

test("treeRows() hangs the children of hidden and folded-away entries under their nearest shown ancestor", () => {
  // user-only hides the assistants: a1 and a2 attach to r; b's fold hides b1 and b2 whatever b shows.
  const rows = treeRows(tree, { filter: "user-only", leafId: "a2", folded: new Set(["b"]) });
  assert.deepEqual(rows.map((r) => [r.entryId, r.parentId]), [["r", null], ["a2", "r"], ["a1", "r"], ["a11", "a1"], ["a12", "a1"]]);
  // The same rows, their text taken from their spans.
  assert.deepEqual(rows.map((r) => r.text), ["user: root", "user: A2", "user: A1", "user: A11", "user: A12"]);
});

test("treeRows() of an empty tree is empty", () => {
  assert.deepEqual(treeRows(new SessionTree([])), []);
});

test("renderTreeRow() cuts to the width and colours each part", () => {
  const row = treeRows(tree, { leafId: "a2" })[3];
  assert.equal(renderTreeRow(row, 12), "│  └─ [here…");
  assert.equal(renderTreeRow(row, 1), "…");
  const colours = createColors(true);
  assert.equal(renderTreeRow(row, Infinity, colours), colours.dim("│  └─ ") + colours.yellow("[here] ") + colours.cyan("user: ") + "A1");
});

test("treeRows() draws at most 100 levels of a very deep tree, keeping the true depth", () => {
  const entries = [user("n0", null, "start", { timestamp: at(0) })];
  for (let i = 1; i <= 150; i++) {
    entries.push(user(`n${i}`, `n${i - 1}`, "deeper", { timestamp: at(2 * i) }));
    entries.push(user(`s${i}`, `n${i - 1}`, "side", { timestamp: at(2 * i + 1) }));
  }
  const rows = treeRows(new SessionTree(entries), { leafId: "n150" });
  assert.equal(rows.length, 301);
  assert.equal(Math.max(...rows.map((r) => r.depth)), 150);
  assert.equal(Math.max(...rows.map((r) => r.depthPrefix.length)), 300);
  const deepest = rows.find((r) => r.entryId === "n150")!;
  assert.equal(deepest.depthPrefix, "│  ".repeat(99) + "├─ ");
  assert.equal(deepest.connectorColumn, 298);
});
