/**
 * Data that is deep or long enough to overflow a stack: a line nested far past any pi entry is
 * refused by every command that reads the session (exit 3, naming the file and line, reported
 * by `check` as `too-deep`), and a branch or a text of hundreds of thousands of lines renders.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../../src/core/read/json-depth.ts";
import { header, memoryFs, runCli, sessionDir, userEntry, writeText } from "./_harness.ts";

const SLOW = { timeout: 120_000 };
const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

/** A session whose line `at` (2 or 3; 1 is the header) carries a value nested `levels` deep. */
function deepSession(levels: number, where: "header" | "message"): string {
  const head = JSON.stringify(header("deep0001"));
  const first = JSON.stringify(userEntry("u1", null, "hello"));
  const second = JSON.stringify({ ...userEntry("u2", "u1", "again"), extra: 0 });
  if (where === "header") return `${head.slice(0, -1)},"extra":${deep(levels)}}\n${first}\n${second}\n`;
  return `${head}\n${first}\n${second.replace('"extra":0', `"extra":${deep(levels)}`)}\n`;
}

test("nestsDeeperThan() counts arrays and objects, not brackets inside strings", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  assert.equal(nestsDeeperThan(bytes(deep(3)), 2), true);
  assert.equal(nestsDeeperThan(bytes(deep(3)), 3), false);
  assert.equal(nestsDeeperThan(bytes('{"a":{"b":[1]}}'), 2), true);
  assert.equal(nestsDeeperThan(bytes(`{"a":"${"[".repeat(50)}"}`), 2), false);
  assert.equal(nestsDeeperThan(bytes(`{"a":"x\\\\","b":"${"{".repeat(50)}"}`), 2), false, "an escaped backslash ends before the quote");
  assert.equal(nestsDeeperThan(bytes(`{"a":"\\"${"{".repeat(50)}"}`), 2), false, "an escaped quote does not end the string");
});

const COMMANDS = [
  ["context", "@"],
  ["context", "@", "--format", "text"],
  ["show", "@"],
  ["info", "@"],
  ["tree", "@"],
  ["export", "@", "--format", "markdown", "-o", "-"],
  ["export", "@", "--format", "html", "-o", "-"],
  ["export", "@", "--format", "json", "-o", "-"],
  ["export", "@", "--format", "jsonl", "-o", "-"],
  ["export", "@", "--format", "jsonl", "--redact", "-o", "-"],
  ["export", "@", "--format", "ndjson", "-o", "-"],
];

for (const where of ["message", "header"] as const) {
  for (const argv of COMMANDS) {
    test(`${argv.join(" ")} refuses a ${where} line nested 100k levels deep: exit 3, naming file and line`, SLOW, async () => {
      const fs = memoryFs();
      const path = `${sessionDir()}/2025-06-01T10-00-00-000Z_deep0001.jsonl`;
      await writeText(fs, path, deepSession(100_000, where));
      // By path: discovery (`@`) passes over a file whose header cannot be read.
      const run = await runCli(argv.map((a) => (a === "@" ? path : a)), { fs });
      assert.equal(run.code, 3, run.stderr);
      const line = where === "header" ? 1 : 3;
      assert.equal(run.stderr.split("\n")[0], `pi-session: Cannot read ${path}: line ${line} nests values more than ${MAX_JSON_DEPTH} levels deep`);
      assert.doesNotMatch(run.stderr, /internal error/);
    });
  }
}

test("a value nested exactly as deep as allowed goes through every command", SLOW, async () => {
  const fs = memoryFs();
  // The line's own object is one level: the value inside gets the rest.
  await writeText(fs, `${sessionDir()}/2025-06-01T10-00-00-000Z_deep0001.jsonl`, deepSession(MAX_JSON_DEPTH - 1, "message"));
  for (const argv of COMMANDS) {
    const run = await runCli(argv, { fs });
    assert.equal(run.code, 0, `${argv.join(" ")}: ${run.stderr}`);
  }
});

test("check reports each too-deep line with its code and line", SLOW, async () => {
  const fs = memoryFs();
  const path = `${sessionDir()}/2025-06-01T10-00-00-000Z_deep0001.jsonl`;
  await writeText(fs, path, deepSession(100_000, "message"));
  const run = await runCli(["--json", "check", path], { fs });
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout).problems.map((p: { line: number; code: string }) => [p.line, p.code]), [[3, "too-deep"]]);
});

test("markdown export, show and tree of a branch of 200k entries finish", SLOW, async () => {
  const fs = memoryFs();
  const lines = [JSON.stringify(header("long0001"))];
  let parent: string | null = null;
  for (let i = 0; i < 200_000; i++) {
    const id = `e${i}`;
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: "x" } }));
    parent = id;
  }
  await writeText(fs, `${sessionDir()}/2025-06-01T10-00-00-000Z_long0001.jsonl`, lines.join("\n") + "\n");
  for (const argv of [["export", "@", "--format", "markdown", "-o", "-"], ["show", "@", "--format", "markdown"], ["show", "@"]]) {
    const run = await runCli(argv, { fs });
    assert.equal(run.code, 0, `${argv.join(" ")}: ${run.stderr.slice(0, 400)}`);
  }
});

test("show and markdown export of a text of 300k lines finish", SLOW, async () => {
  const fs = memoryFs();
  const text = "`a`\n".repeat(300_000);
  const thinking = { type: "message", id: "a1", parentId: "u1", timestamp: "2025-06-01T10:00:02.000Z", message: { role: "assistant", content: [{ type: "thinking", thinking: text }, { type: "text", text }], timestamp: 1 } };
  await writeText(fs, `${sessionDir()}/2025-06-01T10-00-00-000Z_text0001.jsonl`, [header("text0001"), userEntry("u1", null, text), thinking].map((o) => JSON.stringify(o)).join("\n") + "\n");
  for (const argv of [["export", "@", "--format", "markdown", "-o", "-"], ["show", "@", "--format", "markdown"], ["show", "@", "--thinking"]]) {
    const run = await runCli(argv, { fs });
    assert.equal(run.code, 0, `${argv.join(" ")}: ${run.stderr.slice(0, 400)}`);
  }
});
