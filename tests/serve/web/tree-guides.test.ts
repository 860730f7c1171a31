/**
 * `sidebarRows()`: the export viewer's sidebar rows from `tree --json` rows, with the lines of
 * the tree drawn from their depths.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sidebarRows } from "../../../src/serve/web/client/tree-guides.ts";

const row = (id: string, parentId: string | null, depth: number, extra: Record<string, unknown> = {}) => ({ id, parentId, depth, type: "message", role: "user", active: false, text: `text ${id}`, ...extra });

test("sidebarRows() draws a fork's branches with ├─ and └─, and │ while a later branch is to come", () => {
  const rows = sidebarRows([row("a", null, 0), row("b", "a", 0), row("c", "b", 1), row("c2", "c", 1), row("d", "c2", 2), row("e", "c2", 2), row("f", "b", 1), row("g", "f", 1)]);
  assert.deepEqual(rows.map((r) => r.guide), ["", "", "├─", "│ ", "│ ├─", "│ └─", "└─", "  "]);
  assert.deepEqual(rows.map((r) => r.depth), [0, 0, 1, 1, 2, 2, 1, 1]);
});

test("sidebarRows() keeps the text, kind (role, else type) and label, and draws at most ten levels", () => {
  const [user, label] = sidebarRows([row("a", null, 0), row("l", "a", 0, { type: "label", role: undefined, label: "done" })]);
  assert.deepEqual(user, { id: "a", depth: 0, text: "text a", kind: "user", guide: "" });
  assert.deepEqual(label, { id: "l", depth: 0, text: "text l", kind: "label", label: "done", guide: "" });
  const deep = Array.from({ length: 15 }, (_, d) => row(`r${d}`, d === 0 ? null : `r${d - 1}`, d));
  const last = sidebarRows(deep).at(-1)!;
  assert.equal(last.depth, 14);
  assert.equal(last.guide.length, 20);
  assert.ok(last.guide.endsWith("└─"));
});
