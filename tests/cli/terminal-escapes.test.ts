/**
 * Terminal escapes, bidi overrides and C1 controls from a session never reach the terminal:
 * `name` and `label` in read mode, and every other human-readable output. Each string of the
 * session carries an OSC 52 clipboard write, a clear-screen, a window title, BEL, CR, the bidi
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) and C1 controls (U+0080–U+009F).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { oneLine, printable } from "../../src/render/control-chars.ts";
import { CWD, memoryFs, runCli, sessionDir, writeText } from "./_harness.ts";

const E = "\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u001b]0;owned\u0007\u0007\r\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u0085\u009b";

const ENTRIES = [
  { type: "session", version: 3, id: `evil-${E}-id`, timestamp: "2025-06-01T10:00:00.000Z", cwd: CWD, parentSession: `/p${E}.jsonl` },
  { type: "model_change", id: `m0${E}`, parentId: null, timestamp: "2025-06-01T10:00:00.500Z", provider: `pr${E}`, modelId: `mo${E}` },
  { type: "message", id: `u1${E}`, parentId: `m0${E}`, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: `hello ${E} word`, timestamp: 1748772001000 } },
  {
    type: "message",
    id: `a1${E}`,
    parentId: `u1${E}`,
    timestamp: "2025-06-01T10:00:02.000Z",
    message: {
      role: "assistant",
      content: [{ type: "thinking", thinking: `think ${E}` }, { type: "text", text: `answer ${E} word` }, { type: "toolCall", id: `t1${E}`, name: `read${E}`, arguments: { path: `/w/f${E}.ts` } }],
      provider: `pr${E}`,
      model: `mo${E}`,
      usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.5 } },
      stopReason: "toolUse",
      timestamp: 1748772002000,
    },
  },
  {
    type: "message",
    id: `r1${E}`,
    parentId: `a1${E}`,
    timestamp: "2025-06-01T10:00:03.000Z",
    message: { role: "toolResult", toolCallId: `t1${E}`, toolName: `read${E}`, content: [{ type: "text", text: `out ${E} word` }], isError: false, timestamp: 1748772003000 },
  },
  { type: "label", id: `l1${E}`, parentId: `r1${E}`, timestamp: "2025-06-01T10:00:04.000Z", targetId: `a1${E}`, label: `lab${E}` },
  { type: "session_info", id: `s1${E}`, parentId: `l1${E}`, timestamp: "2025-06-01T10:00:05.000Z", name: `name ${E}` },
  { type: "branch_summary", id: `b1${E}`, parentId: `u1${E}`, timestamp: "2025-06-01T10:00:06.000Z", fromId: `zz${E}`, summary: `sum ${E} word` },
  { type: "compaction", id: `c1${E}`, parentId: `s1${E}`, timestamp: "2025-06-01T10:00:07.000Z", summary: `comp ${E}`, firstKeptEntryId: `a1${E}`, tokensBefore: 5 },
  { type: "custom", id: `x1${E}`, parentId: `c1${E}`, timestamp: "2025-06-01T10:00:08.000Z", customType: `cu${E}`, data: { k: E } },
];

const PATH = `${sessionDir(CWD)}/2025-06-01T10-00-00-000Z_evil.jsonl`;

// deno-lint-ignore no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

async function hostile() {
  const fs = memoryFs();
  await writeText(fs, PATH, ENTRIES.map((e) => JSON.stringify(e)).join("\n") + "\n");
  return fs;
}

const COMMANDS = [
  ["name", PATH], ["label", PATH, "a1"],
  ["list"], ["list", "--all"], ["info", PATH], ["show", PATH], ["show", PATH, "--thinking", "--usage"],
  ["show", PATH, "--format", "markdown"], ["tree", PATH, "--filter", "all"], ["context", PATH, "--format", "text"],
  ["check", PATH], ["stats", "--by", "session"], ["stats", "--by", "model"], ["stats", "--by", "project"], ["stats", "--by", "day"],
  ["search", "word"], ["search", "word", "--thinking"], ["files", "/w"], ["files", "/w", "--all"],
  ["export", PATH, "--format", "markdown", "--all-branches", "-o", "-"], ["recent"], ["migrate", PATH, "--dry-run"],
  ["blocks"], ["du"], ["prune", "--older-than", "1d", "--dry-run"],
];

for (const argv of COMMANDS) {
  test(`${argv.join(" ")} prints no escape, bidi override or C1 control from the file`, async () => {
    const fs = await hostile();
    const run = await runCli(argv, { fs });
    assert.ok(run.code <= 1, `exit ${run.code}: ${run.stderr}`);
    assert.doesNotMatch(run.stdout, UNSAFE, `stdout: ${JSON.stringify(run.stdout.match(new RegExp(`.{0,30}${UNSAFE.source}.{0,10}`))?.[0])}`);
    assert.doesNotMatch(run.stderr, UNSAFE, `stderr: ${JSON.stringify(run.stderr.match(new RegExp(`.{0,30}${UNSAFE.source}.{0,10}`))?.[0])}`);
  });
}

test("name and label in read mode print the text, made safe; --json keeps it as stored", async () => {
  const fs = await hostile();
  const name = await runCli(["name", PATH], { fs });
  assert.equal(name.code, 0, name.stderr);
  assert.match(name.stdout, /^name .*\n$/);
  assert.equal(JSON.parse((await runCli(["name", PATH, "--json"], { fs })).stdout).name, `name ${E}`);
  const label = await runCli(["label", PATH, "a1"], { fs });
  assert.equal(label.code, 0, label.stderr);
  assert.match(label.stdout, /^lab.*\n$/);
  assert.equal(JSON.parse((await runCli(["label", PATH, "a1", "--json"], { fs })).stdout).label, `lab${E}`);
});

test("oneLine and printable also neutralise bidi overrides, isolates and C1 controls", () => {
  for (const ch of ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u0085", "\u009b"]) {
    assert.doesNotMatch(oneLine(`a${ch}b`), UNSAFE, `oneLine U+${ch.charCodeAt(0).toString(16)}`);
    assert.doesNotMatch(printable(`a${ch}b`), UNSAFE, `printable U+${ch.charCodeAt(0).toString(16)}`);
  }
  assert.equal(printable("a\u202eb"), "a\uFFFDb");
  assert.equal(oneLine("a\u202e\u2066b"), "a b");
});
