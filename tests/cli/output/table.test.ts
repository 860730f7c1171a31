/**
 * `formatTable()`: columns that give way share the width; no line is wider than the terminal.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { formatTable, shareWidth } from "../../../src/cli/output/table.ts";
import { textWidth } from "../../../src/render/text-width.ts";

test("shareWidth() gives each column an equal share and passes on what one needs less", () => {
  assert.deepEqual(shareWidth([80, 10, 100], 110), [50, 10, 50]);
  assert.deepEqual(shareWidth([30, 100], 110), [30, 80]);
  assert.deepEqual(shareWidth([100, 100], 51), [26, 25]);
  assert.deepEqual(shareWidth([5, 5], 100), [5, 5]);
});

test("formatTable() shares the width between a long cwd and the name instead of squeezing the name", () => {
  const cwd = "~/" + "very-long-folder/".repeat(7) + "project";
  const name = "Refactor the session catalog so that listing is fast on a cold cache";
  const lines = formatTable([["2d", "14", "01a2b3c4", cwd, name]], [{ right: true }, { right: true }, {}, { shrink: true, cutStart: true }, { flex: true }], 140);
  assert.ok(textWidth(lines[0]) <= 140, lines[0]);
  // 140 columns less 20 for age, count, id and gaps leave 120: 60 each (the cwd wants 128: it squeezed the name to 8 before).
  assert.ok(lines[0].endsWith("  " + name.slice(0, 59) + "…"), lines[0]);
  assert.match(lines[0], /  …[^ ]*\/project  /, "the cwd keeps its end");
});

test("formatTable() gives two long columns the same width when neither fits", () => {
  const [line] = formatTable([["x".repeat(100), "y".repeat(100)]], [{ shrink: true }, { flex: true }], 62);
  assert.equal(line, "x".repeat(29) + "…  " + "y".repeat(29) + "…");
});

test("formatTable() cuts a line whose fixed columns alone are wider than the terminal", () => {
  const lines = formatTable([["a".repeat(30), "b".repeat(30), "name"]], [{}, {}, { flex: true }], 40);
  assert.ok(textWidth(lines[0]) <= 40, lines[0]);
});

test("formatTable() leaves a table that fits as it is", () => {
  assert.deepEqual(formatTable([["1h", "3", "hello"], ["12d", "10", "hi"]], [{ right: true }, { right: true }, { flex: true }], 80), [" 1h   3  hello", "12d  10  hi"]);
});

test("formatTable() without a width (a pipe) lays out the same lines as with room to spare, wide and emoji last cells included", () => {
  const rows = [["2d", "14", "~/a", "naïve 🚀 chunk 表 e\u0301"], ["1y", "3", "~/ünïcode/app", "x"], ["5m", "120", "~/b", ""], ["1h", "7", "~/c"]];
  const columns = [{ right: true }, { right: true }, { shrink: true, cutStart: true }, { flex: true }];
  assert.deepEqual(formatTable(rows, columns), formatTable(rows, columns, 10_000));
  // A last column aligned right is measured and padded in a pipe too.
  const right = [{}, {}, {}, { right: true }];
  assert.deepEqual(formatTable(rows, right), formatTable(rows, right, 10_000));
  assert.equal(formatTable(rows, right)[3], "1h  7    ~/c");
});
