/**
 * `sidebarRows()`: the export viewer's sidebar rows from `tree --json` rows, with the lines of
 * the tree drawn from their depths.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sidebarRows } from "../../../src/serve/web/client/tree-guides.ts";

const row = (id: string, parentId: string | null, depth: number, extra: Record<string, unknown> = {}) => ({ id, parentId, depth, type: "message", role: "user", active: false, text: `text ${id}`, ...extra });

test("sidebarRows() draws a fork's branches with ├─ and └─, and │ while a later branch is to come, as the terminal tree does", () => {
  // `tree --filter all --json` of the export fixture: a fork after a0000003, each branch a chain.
  const rows = sidebarRows([
    row("m", null, 0), row("a3", "m", 0),
    row("c", "a3", 1), row("x", "c", 2), row("u3", "x", 2),
    row("l", "a3", 1), row("u2", "l", 2), row("a4", "u2", 2),
  ]);
  // A level a cell: the chains below a branch are one level deeper, under its line.
  assert.deepEqual(rows.map((r) => r.guide), ["", "", "├─", "│   ", "│   ", "└─", "    ", "    "]);
  // A fork on a branch: its lines under the outer one's.
  const nested = sidebarRows([
    row("a", null, 0), row("b", "a", 1), row("b2", "b", 2), row("c", "b2", 3), row("c1", "c", 4), row("d", "b2", 3), row("e", "a", 1),
  ]);
  assert.deepEqual(nested.map((r) => r.guide), ["", "├─", "│   ", "│   ├─", "│   │   ", "│   └─", "└─"]);
});

test("sidebarRows() keeps the text, kind (role, else type) and label, and draws at most ten levels", () => {
  const [user, label] = sidebarRows([row("a", null, 0), row("l", "a", 0, { type: "label", role: undefined, label: "done" })]);
  assert.deepEqual(user, { id: "a", depth: 0, text: "text a", kind: "user", guide: "" });
  assert.deepEqual(label, { id: "l", depth: 0, text: "text l", kind: "label", label: "done", guide: "" });
  // Fourteen forks deep, each with a second branch after: fourteen levels of lines, the innermost ten drawn.
  const deep = Array.from({ length: 15 }, (_, d) => row(`r${d}`, d === 0 ? null : `r${d - 1}`, d));
  const twins = Array.from({ length: 14 }, (_, d) => row(`t${d}`, `r${d}`, d + 1)).reverse();
  const drawn = sidebarRows([...deep, ...twins]);
  assert.equal(drawn[14].depth, 14);
  assert.equal(drawn[14].guide, "│ ".repeat(9) + "├─");
});
