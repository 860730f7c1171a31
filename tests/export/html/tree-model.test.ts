/**
 * The viewer's tree: pi's five filters with the export viewer's rules, search, indentation
 * at forks, the active branch first, and the newest leaf under an entry.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ViewerEntry } from "../../../src/export/html/viewer/entry-text.ts";
import type { TreeFilter as Filter } from "../../../src/core/tree/tree-filter.ts";
import { TreeModel } from "../../../src/export/html/viewer/tree-model.ts";
import { assistant, at, entry, label, modelChange, sessionInfo, toolResult, user } from "../../core/_builders.ts";

const withTime = <T extends { timestamp: string }>(e: T, seconds: number): T => ({ ...e, timestamp: at(seconds) });
const toolCall = (id: string, parent: string) =>
  entry("message", id, parent, {
    message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts" } }], stopReason: "toolUse" },
  });

// u1 → a1 → m1 → t1 → r1 → a2 (label "done") → u2 → a3     (main line, the leaf is a3)
//                                          └→ u3 → a4      (side branch from a2, older)
const ENTRIES = [
  withTime(user("u1", null, "hello world"), 1),
  withTime(assistant("a1", "u1", "hi there"), 2),
  withTime(modelChange("m1", "a1", "openai", "gpt-5"), 3),
  withTime(toolCall("t1", "m1"), 4),
  withTime(toolResult("r1", "t1", "file text", { message: { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "x" }], isError: false } }), 5),
  withTime(assistant("a2", "r1", "read it"), 6),
  withTime(user("u3", "a2", "side question"), 7),
  withTime(assistant("a4", "u3", "side answer"), 8),
  withTime(user("u2", "a2", "main question"), 9),
  withTime(assistant("a3", "u2", "main answer"), 10),
  withTime(label("l1", "a3", "a2", "done"), 11),
  withTime(sessionInfo("s1", "l1", "named"), 12),
] as unknown as ViewerEntry[];

const model = new TreeModel(ENTRIES, new Map([["a2", "done"]]));
const active = new Set(model.pathTo("a3").map((e) => e.id));
const ids = (filter: Filter, search = "", leafId: string | null = "a3") =>
  model.rows({ filter, search, leafId, activePath: active }).map((r) => r.id);

describe("TreeModel", () => {
  it("rows() applies pi's filters; the tool-call-only assistant is hidden, session_info is not a setting", () => {
    assert.deepEqual(ids("all"), ["u1", "a1", "m1", "r1", "a2", "u2", "a3", "l1", "s1", "u3", "a4"]);
    assert.deepEqual(ids("default"), ["u1", "a1", "r1", "a2", "u2", "a3", "s1", "u3", "a4"]);
    assert.deepEqual(ids("no-tools"), ["u1", "a1", "a2", "u2", "a3", "s1", "u3", "a4"]);
    assert.deepEqual(ids("user-only"), ["u1", "u2", "a3", "u3"]);
    assert.deepEqual(ids("labeled-only"), ["a2", "a3"]);
  });

  it("rows() always shows the current leaf", () => {
    assert.deepEqual(ids("user-only", "", "a4"), ["u1", "u2", "u3", "a4"]);
  });

  it("rows() searches label, role and text with every token", () => {
    assert.deepEqual(ids("default", "MAIN"), ["u2", "a3"]);
    assert.deepEqual(ids("default", "main answer"), ["a3"]);
    assert.deepEqual(ids("default", "side", null), ["u3", "a4"]);
    assert.deepEqual(ids("default", "done", null), ["a2"]);
    assert.deepEqual(ids("default", "read a.ts"), ["r1"]);
  });

  it("rows() indents below a fork, the active branch first", () => {
    const rows = model.rows({ filter: "default", search: "", leafId: "a3", activePath: active });
    const depth = Object.fromEntries(rows.map((r) => [r.id, r.depth]));
    assert.deepEqual(depth, { u1: 0, a1: 0, r1: 0, a2: 0, u2: 1, a3: 1, s1: 1, u3: 1, a4: 1 });
    assert.equal(rows.find((r) => r.id === "r1")!.text, "[read a.ts]");
    assert.equal(rows.find((r) => r.id === "a2")!.label, "done");
  });

  it("rows() draws branch lines: ├─ and └─ on a fork's children, │ while a later child is to come", () => {
    const rows = model.rows({ filter: "default", search: "", leafId: "a3", activePath: active });
    const guide = Object.fromEntries(rows.map((r) => [r.id, r.guide]));
    assert.deepEqual(guide, { u1: "", a1: "", r1: "", a2: "", u2: "├─", a3: "│ ", s1: "│ ", u3: "└─", a4: "  " });
  });

  it("pathTo() and newestLeaf() follow parents and the newest child", () => {
    assert.deepEqual(model.pathTo("a4").map((e) => e.id), ["u1", "a1", "m1", "t1", "r1", "a2", "u3", "a4"]);
    assert.equal(model.newestLeaf("a2"), "s1");
    assert.equal(model.newestLeaf("u3"), "a4");
    assert.equal(model.leafCount(), 2);
  });

  it("survives cycles and missing parents", () => {
    const broken = [
      { type: "custom", id: "x", parentId: "y", timestamp: at(1) },
      { type: "custom", id: "y", parentId: "x", timestamp: at(2) },
      { type: "custom", id: "z", parentId: "gone", timestamp: at(3) },
    ] as ViewerEntry[];
    const m = new TreeModel(broken, new Map());
    assert.deepEqual(m.pathTo("x").map((e) => e.id), ["y", "x"]);
    assert.equal(m.newestLeaf("x"), "y");
    assert.deepEqual(m.rows({ filter: "all", search: "", leafId: "z", activePath: new Set() }).map((r) => r.id), ["z"]);
  });
});
