/**
 * Deep trees stay readable: the printed tree caps each row's indentation at half the width,
 * and the navigator scrolls sideways so the selected row's text keeps half the view.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CliDeps } from "../../src/cli/deps.ts";
import { renderTreeNav } from "../../src/cli/interactive/tree-nav/render.ts";
import { initialTreeNav } from "../../src/cli/interactive/tree-nav/state.ts";
import { textWidth } from "../../src/render/text-width.ts";
import { capIndent, indentLimit, sidewaysScroll } from "../../src/render/tree-indent.ts";
import { run } from "../../src/cli/run.ts";
import { SessionTree } from "../../src/core/mod.ts";
import { assistant, at, user } from "../core/_builders.ts";
import { addSession, harnessDeps, memoryFs } from "../cli/_harness.ts";

test("capIndent() keeps the innermost levels after …, at most half the width", () => {
  assert.equal(capIndent("│  ├─ ", 80), "│  ├─ ");
  assert.equal(capIndent("│  │  │  │  ├─ ", 24), "…  │  │  ├─ ");
  assert.equal(capIndent("│  │  │  │  ├─ ", Infinity), "│  │  │  │  ├─ ");
  assert.equal(capIndent("│  │  ├─ ", 4), "…  ");
  assert.equal(indentLimit(140), 69);
});

test("sidewaysScroll() is 0 while the selected row has half the width, else whole levels up to a little context", () => {
  assert.equal(sidewaysScroll(60, 138), 0);
  assert.equal(sidewaysScroll(120, 138), 108);
  assert.equal(sidewaysScroll(30, 40) % 3, 0);
});

/** A session that branches 21 times, each branch point two levels deeper (~126 columns at the end). */
function deepEntries() {
  const entries = [user("u0", null, "start", { timestamp: at(0) })];
  let parent = "u0";
  for (let i = 1; i <= 21; i++) {
    entries.push(assistant(`side${i}`, parent, `side branch ${i}`, { timestamp: at(2 * i) }));
    entries.push(assistant(`a${i}`, parent, `fork ${i}: the main line goes on here with readable text`, { timestamp: at(2 * i + 1) }));
    // A row after the branch's first: the next branch point sits two levels deeper.
    entries.push(user(`u${i}`, `a${i}`, `go on ${i}`, { timestamp: at(2 * i + 1) }));
    parent = `u${i}`;
  }
  return entries;
}

test("tree -i on a 21-branch session at 140 columns keeps the selected row's text readable", () => {
  const state = initialTreeNav({ tree: new SessionTree(deepEntries()), pageSize: 10 });
  const frame = renderTreeNav(state, { columns: 140, rows: 40 }, { now: new Date(at(0)) });
  const selected = frame.lines.find((line) => line.startsWith("› "))!;
  assert.ok(selected.includes("• user: go on 21"), selected);
  const fork = frame.lines.find((line) => line.includes("fork 21"))!;
  assert.ok(fork.includes("• assistant: fork 21: the main line goes on here with readable text"), fork);
  for (const line of frame.lines) assert.ok(textWidth(line) <= 140, line);
});

test("tree at 140 columns caps the indentation of deep rows so their text shows", async () => {
  const fs = memoryFs();
  await addSession(fs, "aaaa1111", deepEntries());
  const out = { stdout: "", stderr: "" };
  const deps: CliDeps = { ...harnessDeps({ fs, stdoutIsTTY: true, env: { NO_COLOR: "1" } }, out), columns: 140 };
  assert.equal(await run(["tree", "aaaa1111"], deps), 0, out.stderr);
  const lines = out.stdout.trimEnd().split("\n");
  for (const line of lines) assert.ok(textWidth(line) <= 140, line);
  const deepest = lines.find((line) => line.includes("fork 21"))!;
  // Half the width for the text (beside the entry ids): at least 60 columns of it.
  assert.ok(deepest.includes("• assistant: fork 21: the main line goes on here with readab"), deepest);
  // After the entry id, the outer levels have given way to `…`.
  assert.match(deepest, /^\S+ +… {2}/);
});
