/**
 * Table tests for the tree navigator's reducer and render: moving and paging, folds and
 * segment jumps, the five filters, search, labels, label times, the action menu, narrow
 * terminals.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { keyOf, typing } from "../../../src/cli/interactive/keys.ts";
import { labelTime, renderTreeNav } from "../../../src/cli/interactive/tree-nav/render.ts";
import { effectFailed, initialTreeNav, MENU, reduceTreeNav, treeReloaded, type TreeNavState } from "../../../src/cli/interactive/tree-nav/state.ts";
import { textWidth } from "../../../src/render/text-width.ts";
import { SessionTree } from "../../../src/core/mod.ts";
import { assistant, at, label, toolResult, user } from "../../core/_builders.ts";

/**
 * r ─┬─ a ─┬─ a1 [here] ─┬─ a11
 *    │     │             └─ a12 ─ l (label entry: the leaf)
 *    │     └─ a2
 *    └─ b ── b1 (tool result) ── b2
 */
const ENTRIES = [
  user("r", null, "root", { timestamp: at(0) }),
  assistant("a", "r", "A", { timestamp: at(1) }),
  user("a1", "a", "A1", { timestamp: at(2) }),
  user("a2", "a", "A2", { timestamp: at(3) }),
  assistant("b", "r", "B", { timestamp: at(4) }),
  toolResult("b1", "b", "B1", { timestamp: at(5) }),
  user("b2", "b1", "B2", { timestamp: at(6) }),
  user("a11", "a1", "A11", { timestamp: at(7) }),
  user("a12", "a1", "A12", { timestamp: at(8) }),
  label("l", "a12", "a1", "here", { timestamp: at(9) }),
];
const TREE = new SessionTree(ENTRIES);
/** Display order with the default filter. */
const ORDER = ["r", "a", "a1", "a12", "a11", "a2", "b", "b1", "b2"];

function start(pageSize = 3): TreeNavState {
  return initialTreeNav({ tree: TREE, pageSize });
}

function press(state: TreeNavState, ...keys: string[]): TreeNavState {
  return keys.reduce((s, k) => reduceTreeNav(s, keyOf(k)), state);
}

const at_ = (state: TreeNavState) => state.rows[state.selected]?.entryId;
const ids = (state: TreeNavState) => state.rows.map((row) => row.entryId);
const draw = (state: TreeNavState, columns = 80) => renderTreeNav(state, { columns, rows: 24 }, { now: new Date(at(100)) }).lines;
const footer = (state: TreeNavState) => draw(state).at(-1);

test("initialTreeNav() lays out every row and selects the active leaf's nearest visible entry", () => {
  const s = start();
  assert.deepEqual(ids(s), ORDER);
  assert.equal(at_(s), "a12");
  assert.equal(footer(s), "  (4/9)");
});

const MOVES: [keys: string[], expected: string][] = [
  [["up"], "a1"],
  [["down"], "a11"],
  [["up", "up", "up", "up"], "b2"], // Up wraps at the top
  [["down", "down", "down", "down", "down", "down"], "r"], // Down wraps at the bottom
  [["left"], "r"], // pages of pageSize (3) rows, clamped
  [["pageup"], "r"],
  [["ctrl+b"], "r"],
  [["right"], "b"],
  [["pagedown", "pagedown"], "b2"],
  [["ctrl+f"], "b"],
  [["ctrl+left"], "a1"], // not foldable: back to the segment start
  [["ctrl+left", "ctrl+left", "ctrl+left"], "a"], // a1 folds, then up to a's segment start
  [["alt+left"], "a1"],
  [["up", "up", "ctrl+right"], "a1"], // from a: a branch point's first child
  [["up", "up", "up", "ctrl+right", "ctrl+right", "ctrl+right"], "a12"],
  [["down", "down", "down", "alt+right"], "b2"], // from b: the end of its single-child chain
];

for (const [keys, expected] of MOVES) {
  test(`reduceTreeNav() [${keys.join(", ")}] selects ${expected}`, () => {
    assert.equal(at_(press(start(), ...keys)), expected);
  });
}

test("reduceTreeNav() Ctrl+Left folds a foldable row (⊞) and Ctrl+Right unfolds it (⊟)", () => {
  const folded = press(start(), "up", "ctrl+left");
  assert.deepEqual(ids(folded), ["r", "a", "a1", "a2", "b", "b1", "b2"]);
  assert.equal(at_(folded), "a1");
  assert.match(draw({ ...folded, pageSize: 10 }).join("\n"), /│ {2}├⊞ • \[here\] user: A1/);
  const root = press(start(), "up", "up", "up", "ctrl+left");
  assert.deepEqual(ids(root), ["r"]);
  assert.match(draw(root)[5], /^› ⊞ • user: root$/);
  const open = press(folded, "ctrl+right");
  assert.deepEqual(ids(open), ORDER);
  assert.match(draw({ ...open, pageSize: 10 }).join("\n"), /│ {2}├⊟ • \[here\] user: A1/);
});

test("reduceTreeNav() filters: Ctrl+T/U/L/A toggle against default, Ctrl+D resets, Ctrl+O and Shift+Ctrl+O cycle", () => {
  const tags: [string[], string, string][] = [
    [["ctrl+t"], "no-tools", "  (4/8) [no-tools]"],
    [["ctrl+t", "ctrl+t"], "default", "  (4/9)"],
    [["ctrl+u"], "user-only", "  (3/6) [user]"],
    [["ctrl+l"], "labeled-only", "  (1/1) [labeled]"],
    [["ctrl+a"], "all", "  (5/10) [all]"],
    [["ctrl+a", "ctrl+d"], "default", "  (4/9)"],
    [["ctrl+o"], "no-tools", "  (4/8) [no-tools]"],
    [["ctrl+o", "ctrl+o", "ctrl+o", "ctrl+o", "ctrl+o"], "default", "  (4/9)"],
    [["shift+ctrl+o"], "all", "  (5/10) [all]"],
  ];
  for (const [keys, filter, text] of tags) {
    const s = press(start(), ...keys);
    assert.deepEqual([s.filter, footer(s)], [filter, text], keys.join(" "));
  }
  assert.deepEqual(ids(press(start(), "ctrl+u")), ["r", "a1", "a12", "a11", "a2", "b2"]);
});

test("a filter change clears folds; a hidden selection moves to its nearest visible ancestor and comes back", () => {
  const folded = press(start(), "up", "ctrl+left", "ctrl+t");
  assert.deepEqual(folded.folded, new Set());
  const onTool = press(start(), "down", "down", "down", "down"); // b1, a tool result
  assert.equal(at_(onTool), "b1");
  const hidden = press(onTool, "ctrl+t");
  assert.equal(at_(hidden), "b");
  assert.equal(at_(press(hidden, "ctrl+t")), "b1");
  const nothing = press(start(), "ctrl+l", "ctrl+l"); // labeled-only keeps a1, then back
  assert.equal(at_(nothing), "a12");
});

test("reduceTreeNav() typing searches (tokens ANDed, case-insensitive), Backspace edits, Escape clears then closes", () => {
  let s = press(start(), ...typing("user a1").map((k) => k.text));
  assert.equal(s.search, "user a1");
  assert.deepEqual(ids(s), ["a1", "a12", "a11"]);
  assert.equal(draw(s)[3], "  Type to search: user a1");
  s = press(s, "backspace", "backspace", "backspace");
  assert.deepEqual(ids(s), ["r", "a1", "a12", "a11", "a2", "b2"]);
  assert.deepEqual(press(s, ...typing("zzz").map((k) => k.text)).rows, []);
  assert.match(draw(press(s, "z", "z", "z")).join("\n"), /No entries found\n {2}\(0\/0\)$/);
  s = press(s, "escape");
  assert.deepEqual([s.search, s.exit], ["", undefined]);
  assert.deepEqual(press(s, "escape").exit, { kind: "cancel" });
  assert.deepEqual(press(start(), "x", "ctrl+c").exit, { kind: "cancel" });
  assert.deepEqual(ids(press(start(), "h", "e", "r", "e")), ["a1"]); // the label is searchable
});

test("reduceTreeNav() Shift+L edits the label: prefilled, Enter writes, empty clears, Escape cancels", () => {
  let s = press(start(), "up", "L");
  assert.deepEqual(s.mode, { kind: "label", entryId: "a1", input: "here" });
  assert.equal(draw(s)[4], "  Label (empty to remove): here");
  s = press(s, "ctrl+u", "t", "o", "p", "enter");
  assert.deepEqual(s.effects, [{ kind: "label", targetId: "a1", label: "top" }]);
  assert.deepEqual(press(start(), "up", "L", "ctrl+u", " ", "enter").effects, [{ kind: "label", targetId: "a1", label: undefined }]);
  assert.deepEqual(press(start(), "up", "L", "enter").effects, []); // unchanged
  assert.deepEqual(press(start(), "L", "x", "escape").mode, { kind: "browse" });
  const relabelled = new SessionTree([...ENTRIES, label("l2", "l", "a12", "new", { timestamp: at(10) })]);
  const reloaded = treeReloaded({ ...s, effects: [] }, relabelled, 'Labelled a12 "new"');
  assert.match(draw(reloaded).join("\n"), /Labelled a12 "new"[\s\S]*│ {2}│ {2}├─ • \[new\] user: A12/);
  assert.equal(draw(effectFailed(reloaded, "Failed to label: no"))[1], "  Failed to label: no");
});

test("reduceTreeNav() Shift+T shows label times in local time; the footer says so", () => {
  const s = press(start(), "T");
  assert.equal(footer(s), "  (4/9) [+label time]");
  assert.match(draw({ ...s, pageSize: 9 }).join("\n"), /\[here\] \d\d:\d\d user: A1/);
  assert.equal(footer(press(s, "T")), "  (4/9)");
  const now = new Date(2026, 5, 15, 12, 0);
  assert.equal(labelTime(new Date(2026, 5, 15, 9, 5).toISOString(), now), "09:05");
  assert.equal(labelTime(new Date(2026, 0, 2, 23, 59).toISOString(), now), "1/2 23:59");
  assert.equal(labelTime(new Date(2025, 11, 31, 8, 0).toISOString(), now), "25/12/31 08:00");
});

test("reduceTreeNav() Enter opens the action menu: Up/Down wrap, Enter runs an action, Escape goes back", () => {
  const menu = press(start(), "enter");
  assert.deepEqual(menu.mode, { kind: "menu", entryId: "a12", index: 0 });
  assert.match(draw(menu).join("\n"), /Entry a12: user: A12\n\n› Show the context at this entry/);
  const actions = MENU.map((_, i) => press(menu, ...Array(i).fill("down"), "enter"));
  assert.deepEqual(actions.slice(0, 4).map((s) => s.exit), ["context", "fork", "clone", "id"].map((action) => ({ kind: "done", value: { action, entryId: "a12" } })));
  assert.deepEqual(actions[4].mode, { kind: "label", entryId: "a12", input: "" });
  assert.equal(press(menu, "up").mode.kind === "menu" && (press(menu, "up").mode as { index: number }).index, MENU.length - 1);
  assert.deepEqual(press(menu, "escape").mode, { kind: "browse" });
});

test("renderTreeNav() keeps one line per row at 40 columns", () => {
  const long = new SessionTree([...ENTRIES, user("z", "b2", "a very long user message that would wrap a forty column terminal", { timestamp: at(11) })]);
  const lines = draw(initialTreeNav({ tree: long, pageSize: 12 }), 40);
  for (const line of lines) assert.ok(textWidth(line) <= 40, `${JSON.stringify(line)} is wider than 40`);
  assert.match(lines.find((line) => line.startsWith("›")) ?? "", /…$/);
  assert.ok(textWidth(lines[3]) < 40);
});
