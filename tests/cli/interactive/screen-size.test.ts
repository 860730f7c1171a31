/**
 * The prompts fit the terminal they are drawn on, also after it shrank: the frame is never
 * taller than the screen, and a resize sets the page to the new height.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderTreeNav } from "../../../src/cli/interactive/tree-nav/render.ts";
import { initialTreeNav } from "../../../src/cli/interactive/tree-nav/state.ts";
import { SessionTree } from "../../../src/core/mod.ts";
import { assistant, at, user } from "../../core/_builders.ts";

function longTree(): SessionTree {
  const entries = [user("e0", null, "start", { timestamp: at(0) })];
  for (let i = 1; i < 60; i++) entries.push((i % 2 ? assistant : user)(`e${i}`, `e${i - 1}`, `row ${i}`, { timestamp: at(i) }));
  return new SessionTree(entries);
}

test("renderTreeNav() keeps its header on a 24-row screen even with a page set for a taller one", () => {
  const state = initialTreeNav({ tree: longTree(), pageSize: 20 });
  const frame = renderTreeNav(state, { columns: 80, rows: 24 }, { now: new Date(at(0)) });
  assert.ok(frame.lines.length < 24, `${frame.lines.length} lines on 24 rows`);
  assert.equal(frame.lines[0].trim(), "Session Tree");
  assert.ok(frame.lines.some((line) => line.startsWith("› ")), "the selected row is drawn");
  assert.match(frame.lines.at(-1)!, /\(60\/60\)/);
});
