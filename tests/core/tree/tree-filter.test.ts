import { test } from "node:test";
import assert from "node:assert/strict";
import { filterKeeps, TREE_FILTERS, type TreeFilter } from "../../../src/core/tree/tree-filter.ts";

const SETTINGS = new Set(["label", "model_change"]);

test("filterKeeps: each mode's rule, with the caller's settings types", () => {
  const entries = {
    user: { type: "message", role: "user", labelled: false },
    toolResult: { type: "message", role: "toolResult", labelled: false },
    labelledAssistant: { type: "message", role: "assistant", labelled: true },
    label: { type: "label", role: undefined, labelled: false },
    sessionInfo: { type: "session_info", role: undefined, labelled: false },
  };
  // Kept by: default, no-tools, user-only, labeled-only, all.
  const expected: Record<keyof typeof entries, boolean[]> = {
    user: [true, true, true, false, true],
    toolResult: [true, false, false, false, true],
    labelledAssistant: [true, true, false, true, true],
    label: [false, false, false, false, true],
    sessionInfo: [true, true, false, false, true],
  };
  assert.deepEqual(TREE_FILTERS, ["default", "no-tools", "user-only", "labeled-only", "all"]);
  for (const [name, facts] of Object.entries(entries)) {
    const kept: boolean[] = TREE_FILTERS.map((filter: TreeFilter) => filterKeeps(filter, facts, SETTINGS));
    assert.deepEqual(kept, expected[name as keyof typeof entries], name);
  }
  // session_info counts as settings only where the caller says so (pi's terminal tree, not its HTML export).
  assert.equal(filterKeeps("default", entries.sessionInfo, new Set(["session_info"])), false);
});
