/**
 * Tests for SessionTree: the default leaf, guarded parent walks, structural issues, the
 * forest with labels, session names, leaves and children, and very large trees.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type SessionEntry, SessionTree, type SessionTreeNode, walkToRoot } from "../../../src/core/mod.ts";
import { assistant, at, custom, label, sessionInfo, user } from "../_builders.ts";

/** The big-tree tests take seconds on a busy machine; Bun's default per-test limit is 5 s. */
const SLOW = { timeout: 60_000 };

function ids(entries: readonly SessionEntry[]): string[] {
  return entries.map((e) => e.id);
}

/** Every node of a forest, depth first, without recursion. */
function allNodes(roots: SessionTreeNode[]): SessionTreeNode[] {
  const out: SessionTreeNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

/** The shape of a forest as nested `[id, children]`, for readable assertions. */
type Shape = [string, Shape[]];
function shape(nodes: SessionTreeNode[]): Shape[] {
  return nodes.map((n) => [n.entry.id, shape(n.children)]);
}

function issueCodes(tree: SessionTree, lines?: number[]): [string, number, string | undefined][] {
  return tree.findIssues(lines).map((i) => [i.code, i.line, i.entryId]);
}

// u1 - a1 - u2 - a2
//         \- u3        (u3 is last in the file, so it is the leaf)
const branched = [
  user("u1", null, "1", { timestamp: at(1) }),
  assistant("a1", "u1", "2", { timestamp: at(2) }),
  user("u2", "a1", "3", { timestamp: at(3) }),
  assistant("a2", "u2", "4", { timestamp: at(4) }),
  user("u3", "a1", "5", { timestamp: at(5) }),
];

test("SessionTree leaf is the last entry in file order, not the newest or deepest", () => {
  const entries = [...branched.slice(0, 4), user("u3", "a1", "5", { timestamp: at(-100) })];
  assert.equal(new SessionTree(entries).leafId, "u3");
  assert.equal(new SessionTree([]).leafId, null);
});

test("SessionTree.getPath() walks from the default leaf to the root", () => {
  const tree = new SessionTree(branched);
  assert.deepEqual(ids(tree.getPath()), ["u1", "a1", "u3"]);
  assert.deepEqual(ids(tree.getPath(undefined)), ["u1", "a1", "u3"]);
});

test("SessionTree.getPath() gives an empty path for a null leaf", () => {
  assert.deepEqual(new SessionTree(branched).getPath(null), []);
  assert.deepEqual(new SessionTree([]).getPath(), []);
});

test("SessionTree.getPath() falls back to the last entry for an unknown leaf", () => {
  assert.deepEqual(ids(new SessionTree(branched).getPath("nope")), ["u1", "a1", "u3"]);
});

test("SessionTree.getPath() follows a given leaf", () => {
  const tree = new SessionTree(branched);
  assert.deepEqual(ids(tree.getPath("a2")), ["u1", "a1", "u2", "a2"]);
  assert.deepEqual(ids(tree.getPath("a1")), ["u1", "a1"]);
  assert.deepEqual(tree.walk("a2").stop, undefined);
});

test("SessionTree.walk() stops at a self-parent and reports it", () => {
  const tree = new SessionTree([user("r", null, "r"), user("x", "x", "x"), user("y", "x", "y")]);
  assert.deepEqual(ids(tree.getPath()), ["x", "y"]);
  assert.deepEqual(tree.walk().stop, { kind: "cycle", entryId: "x", parentId: "x" });
});

test("SessionTree.walk() stops on a 2-cycle and reports it", () => {
  const tree = new SessionTree([user("a", "b", "a"), user("b", "a", "b")]);
  assert.deepEqual(ids(tree.getPath()), ["a", "b"]);
  assert.deepEqual(tree.walk().stop, { kind: "cycle", entryId: "a", parentId: "b" });
  assert.deepEqual(ids(tree.getPath("a")), ["b", "a"]);
});

test("SessionTree.walk() stops on a cycle below the leaf and keeps what it walked", () => {
  const tree = new SessionTree([
    user("r", null, "r"),
    user("x", "y", "x"),
    user("y", "x", "y"),
    user("z", "x", "z"),
  ]);
  assert.deepEqual(ids(tree.getPath()), ["y", "x", "z"]);
  assert.deepEqual(tree.walk().stop, { kind: "cycle", entryId: "y", parentId: "x" });
  assert.deepEqual(ids(tree.getPath("r")), ["r"]);
});

test("SessionTree.walk() stops at a missing parent: an orphan's path starts at the orphan", () => {
  const tree = new SessionTree([user("r", null, "r"), user("o", "gone", "o"), assistant("p", "o", "p")]);
  assert.deepEqual(ids(tree.getPath()), ["o", "p"]);
  assert.deepEqual(tree.walk().stop, { kind: "missing-parent", entryId: "o", parentId: "gone" });
});

test("walkToRoot() follows the later copy of a duplicate id, as pi's index does", () => {
  const first = user("a", null, "first");
  const second = user("a", null, "second");
  const leaf = assistant("b", "a", "b");
  const tree = new SessionTree([first, second, leaf]);
  assert.equal(tree.getPath()[0], second);
  assert.equal(walkToRoot(leaf, tree.byId).path[0], second);
});

test("SessionTree.findIssues() reports each structural problem with its line and entry", () => {
  const entries = [
    user("r", null, "r"),
    user("r", null, "again"), // duplicate id
    user("s", "s", "self"), // self-parent
    user("o", "gone", "orphan"), // missing parent
    user("c1", "c2", "c1"), // 2-cycle c1 <-> c2
    user("c2", "c1", "c2"),
    label("l1", "r", "nothing", "x"), // label on a missing target
    label("l2", "r", "r", "fine"),
  ];
  const lines = [2, 3, 4, 5, 6, 7, 8, 9];
  assert.deepEqual(issueCodes(new SessionTree(entries), lines), [
    ["duplicate-id", 3, "r"],
    ["self-parent", 4, "s"],
    ["missing-parent", 5, "o"],
    ["cycle", 7, "c2"],
    ["label-target-missing", 8, "l1"],
  ]);
});

test("SessionTree.findIssues() reports a cycle below the root once", () => {
  const tree = new SessionTree([user("r", null, "r"), user("x", "y", "x"), user("y", "x", "y"), user("z", "x", "z")]);
  assert.deepEqual(issueCodes(tree, [2, 3, 4, 5]), [["cycle", 4, "y"]]);
});

test("SessionTree.findIssues() reports entries without an id or a parentId as missing fields", () => {
  const entries = [
    { type: "custom" },
    { type: "custom", id: 7, parentId: null },
    { type: "custom", id: "p" },
    user("u1", "p", "child of a parentless entry"),
  ] as unknown as SessionEntry[];
  assert.deepEqual(issueCodes(new SessionTree(entries), [2, 3, 4, 5]), [
    ["missing-field", 2, undefined],
    ["missing-field", 3, undefined],
    ["missing-field", 4, "p"],
  ]);
  assert.deepEqual(ids(new SessionTree(entries).getPath()), ["p", "u1"]);
});

test("SessionTree.findIssues() uses line 0 without entry lines, and nothing for a sound tree", () => {
  assert.deepEqual(issueCodes(new SessionTree([user("s", "s", "self")])), [["self-parent", 0, "s"]]);
  assert.deepEqual(issueCodes(new SessionTree(branched)), []);
});

test("SessionTree.getTree() builds branches with children sorted by timestamp", () => {
  const entries = [
    user("u1", null, "1", { timestamp: at(1) }),
    assistant("late", "u1", "x", { timestamp: at(30) }),
    assistant("early", "u1", "x", { timestamp: at(10) }),
    assistant("mid", "u1", "x", { timestamp: at(20) }),
    user("deep", "early", "x", { timestamp: at(11) }),
  ];
  assert.deepEqual(shape(new SessionTree(entries).getTree()), [
    ["u1", [["early", [["deep", []]]], ["mid", []], ["late", []]]],
  ]);
});

test("SessionTree.getTree() makes orphans and self-parents roots", () => {
  const tree = new SessionTree([user("r", null, "r"), user("o", "gone", "o"), user("s", "s", "s"), user("c", "o", "c")]);
  assert.deepEqual(shape(tree.getTree()), [["r", []], ["o", [["c", []]]], ["s", []]]);
});

test("SessionTree.getTree() keeps every cycle member exactly once", () => {
  const tree = new SessionTree([
    user("r", null, "r"),
    user("x", "y", "x"),
    user("y", "x", "y"),
    user("z", "x", "z"),
    user("p", "q", "p"),
    user("q", "p", "q"),
  ]);
  const roots = tree.getTree();
  const seen = ids(allNodes(roots).map((n) => n.entry)).sort();
  assert.deepEqual(seen, ["p", "q", "r", "x", "y", "z"]);
  assert.deepEqual(shape(roots), [["r", []], ["x", [["y", []], ["z", []]]], ["p", [["q", []]]]]);
});

test("SessionTree.getTree() survives a cycle made by a duplicate id (pi hangs there)", () => {
  const tree = new SessionTree([user("a", null, "a"), assistant("b", "a", "b"), user("a", "b", "again")]);
  const roots = tree.getTree();
  assert.deepEqual(ids(allNodes(roots).map((n) => n.entry)).sort(), ["a", "b"]);
});

test("SessionTree labels: the latest label entry in file order wins, across branches", () => {
  const entries = [
    ...branched,
    label("l1", "a2", "u1", "first", { timestamp: at(10) }),
    label("l2", "u3", "u1", "second", { timestamp: at(11) }),
    label("l3", "a2", "a1", "kept", { timestamp: at(12) }),
  ];
  const tree = new SessionTree(entries);
  assert.equal(tree.getLabel("u1"), "second");
  assert.equal(tree.getLabel("a1"), "kept");
  const nodes = new Map(allNodes(tree.getTree()).map((n) => [n.entry.id, n]));
  assert.equal(nodes.get("u1")?.label, "second");
  assert.equal(nodes.get("u1")?.labelTimestamp, at(11));
  assert.equal(nodes.get("a1")?.labelTimestamp, at(12));
  assert.equal(nodes.get("u2")?.label, undefined);
  assert.equal(nodes.get("u2")?.labelTimestamp, undefined);
});

test("SessionTree labels: an empty or missing label clears the label and its timestamp", () => {
  for (const clear of [label("l2", "l1", "u1", ""), label("l2", "l1", "u1")]) {
    const tree = new SessionTree([user("u1", null, "x"), label("l1", "u1", "u1", "tag"), clear]);
    assert.equal(tree.getLabel("u1"), undefined);
    const root = tree.getTree()[0];
    assert.equal(root.label, undefined);
    assert.equal(root.labelTimestamp, undefined);
  }
  const relabelled = new SessionTree([user("u1", null, "x"), label("l1", "u1", "u1", ""), label("l2", "l1", "u1", "back")]);
  assert.equal(relabelled.getLabel("u1"), "back");
});

test("SessionTree.sessionName is the latest session_info, trimmed", () => {
  const tree = new SessionTree([user("u1", null, "x"), sessionInfo("i1", "u1", "First"), sessionInfo("i2", "i1", "  Second \n")]);
  assert.equal(tree.sessionName, "Second");
});

test("SessionTree.sessionName: an empty or blank name clears it (pi 1.x)", () => {
  for (const blank of ["", "   ", undefined]) {
    const tree = new SessionTree([sessionInfo("i1", null, "Named"), sessionInfo("i2", "i1", blank)]);
    assert.equal(tree.sessionName, undefined, JSON.stringify(blank));
  }
  assert.equal(new SessionTree([user("u1", null, "x")]).sessionName, undefined);
});

test("SessionTree.sessionName follows file order, not the branch", () => {
  const tree = new SessionTree([user("u1", null, "x"), sessionInfo("i1", "u1", "A"), sessionInfo("i2", "u1", "B"), user("u2", "i1", "y")]);
  assert.equal(tree.sessionName, "B");
});

test("SessionTree.leaves() lists the end of every branch", () => {
  assert.deepEqual(ids(new SessionTree(branched).leaves()), ["a2", "u3"]);
  assert.deepEqual(new SessionTree([]).leaves(), []);
});

test("SessionTree.getChildren() lists direct children in file order", () => {
  const tree = new SessionTree(branched);
  assert.deepEqual(ids(tree.getChildren("a1")), ["u2", "u3"]);
  assert.deepEqual(ids(tree.getChildren("u1")), ["a1"]);
  assert.deepEqual(tree.getChildren("a2"), []);
  assert.deepEqual(tree.getChildren("nope"), []);
  assert.deepEqual(new SessionTree([user("s", "s", "self")]).getChildren("s"), []);
});

test("SessionTree.getEntry() and byId: the later duplicate wins", () => {
  const later = user("a", null, "later");
  const tree = new SessionTree([user("a", null, "first"), later]);
  assert.equal(tree.getEntry("a"), later);
  assert.equal(tree.byId.size, 1);
});

test("SessionTree handles a 200,000-entry chain without recursion", SLOW, () => {
  const entries: SessionEntry[] = [];
  for (let i = 0; i < 200_000; i++) entries.push(custom(`e${i}`, i === 0 ? null : `e${i - 1}`));
  const tree = new SessionTree(entries);
  assert.equal(tree.leafId, "e199999");
  const path = tree.getPath();
  assert.equal(path.length, 200_000);
  assert.equal(path[0].id, "e0");
  assert.equal(tree.getPath("e999").length, 1000);
  const roots = tree.getTree();
  assert.equal(roots.length, 1);
  assert.equal(allNodes(roots).length, 200_000);
});

test("SessionTree handles a node with 50,000 children", SLOW, () => {
  const entries: SessionEntry[] = [user("root", null, "r")];
  for (let i = 0; i < 50_000; i++) entries.push(custom(`c${i}`, "root", {}, { timestamp: at(50_000 - i) }));
  const tree = new SessionTree(entries);
  const [root] = tree.getTree();
  assert.equal(root.children.length, 50_000);
  assert.equal(root.children[0].entry.id, "c49999");
  assert.equal(tree.getChildren("root").length, 50_000);
  assert.equal(tree.leaves().length, 50_000);
  assert.deepEqual(ids(tree.getPath("c7")), ["root", "c7"]);
});

test("SessionTree.getTree() handles more children than a function call can take as arguments", SLOW, () => {
  const entries: SessionEntry[] = [user("root", null, "r")];
  for (let i = 0; i < 200_000; i++) entries.push(custom(`c${i}`, "root"));
  const [root] = new SessionTree(entries).getTree();
  assert.equal(root.children.length, 200_000);
});

test("SessionTree treats a label that is not text as cleared, so printing code only ever sees strings", () => {
  const entries = [user("u1", null, "hi"), label("l1", "u1", "u1", "ok"), { ...label("l2", "l1", "u1", "x"), label: 7 } as unknown as SessionEntry];
  const tree = new SessionTree(entries);
  assert.equal(tree.getLabel("u1"), undefined);
  assert.equal(tree.labels.size, 0);
});
