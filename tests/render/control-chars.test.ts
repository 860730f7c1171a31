/**
 * Text from a session file never puts a control character on the terminal: every string of a
 * hostile session (ids, cwd, parent, name, labels, models, tool names, content) carries an
 * escape sequence and a bell, and no human-readable output of any command shows one. JSON
 * output keeps the text as it is.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { oneLine, printable } from "../../src/render/control-chars.ts";
import { CWD, memoryFs, runCli, sessionDir, writeText } from "../cli/_harness.ts";

const E = "\u001b[31m\u0007";

const ENTRIES = [
  { type: "session", version: 3, id: `evil${E}id`, timestamp: "2025-06-01T10:00:00.000Z", cwd: CWD, parentSession: `/p${E}.jsonl` },
  { type: "model_change", id: `m0${E}`, parentId: null, timestamp: "2025-06-01T10:00:00.500Z", provider: `pr${E}`, modelId: `mo${E}` },
  { type: "message", id: `u1${E}`, parentId: `m0${E}`, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: `hello ${E} word`, timestamp: 1748772001000 } },
  {
    type: "message",
    id: `a1${E}`,
    parentId: `u1${E}`,
    timestamp: "2025-06-01T10:00:02.000Z",
    message: {
      role: "assistant",
      content: [{ type: "thinking", thinking: `think ${E}` }, { type: "text", text: `answer ${E} word` }, { type: "toolCall", id: `t1${E}`, name: `bash${E}`, arguments: { command: `ls ${E}` } }],
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
    message: { role: "toolResult", toolCallId: `t1${E}`, toolName: `bash${E}`, content: [{ type: "text", text: `out ${E} word` }], isError: false, timestamp: 1748772003000 },
  },
  { type: "label", id: `l1${E}`, parentId: `r1${E}`, timestamp: "2025-06-01T10:00:04.000Z", targetId: `a1${E}`, label: `lab${E}` },
  { type: "session_info", id: `s1${E}`, parentId: `l1${E}`, timestamp: "2025-06-01T10:00:05.000Z", name: `name ${E}` },
  { type: "branch_summary", id: `b1${E}`, parentId: `u1${E}`, timestamp: "2025-06-01T10:00:06.000Z", fromId: `zz${E}`, summary: `sum ${E} word` },
  { type: "compaction", id: `c1${E}`, parentId: `s1${E}`, timestamp: "2025-06-01T10:00:07.000Z", summary: `comp ${E}`, firstKeptEntryId: `a1${E}`, tokensBefore: 5 },
  { type: "custom", id: `x1${E}`, parentId: `c1${E}`, timestamp: "2025-06-01T10:00:08.000Z", customType: `cu${E}`, data: { k: E } },
];

const PATH = `${sessionDir(CWD)}/2025-06-01T10-00-00-000Z_evil.jsonl`;

/** A second session: its id shares a prefix with the first, and its one entry's parent is missing. */
const OTHER = `${sessionDir(CWD)}/2025-06-02T10-00-00-000Z_evil2.jsonl`;
const OTHER_ENTRIES = [
  { type: "session", version: 3, id: `evil${E}two`, timestamp: "2025-06-02T10:00:00.000Z", cwd: CWD },
  { type: "message", id: `z9${E}`, parentId: `gone${E}`, timestamp: "2025-06-02T10:00:01.000Z", message: { role: "user", content: "orphan", timestamp: 1 } },
];

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

test("no human-readable output shows a control character from the file", async () => {
  const fs = memoryFs();
  await writeText(fs, PATH, ENTRIES.map((e) => JSON.stringify(e)).join("\n") + "\n");
  await writeText(fs, OTHER, OTHER_ENTRIES.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const commands = [
    ["list"], ["list", "--all"], ["info", PATH], ["show", PATH], ["show", PATH, "--thinking", "--usage"],
    ["show", PATH, "--format", "markdown"], ["tree", PATH, "--filter", "all"], ["context", PATH, "--format", "text"],
    ["check", PATH], ["stats", "--by", "session"], ["stats", "--by", "model"], ["stats", "--by", "project"],
    ["search", "word"], ["search", "word", "--thinking"], ["files", "/"], ["export", PATH, "--format", "markdown", "--all-branches", "-o", "-"],
    // Errors and notes quote ids from the files: an ambiguous prefix lists both, a missing parent is noted.
    ["info", "evil"], ["show", OTHER], ["tree", OTHER], ["migrate", PATH, "--dry-run"],
  ];
  for (const argv of commands) {
    const run = await runCli(argv, { fs });
    assert.ok(run.code <= (argv[1] === "evil" ? 2 : 1), `${argv.join(" ")}: exit ${run.code}: ${run.stderr}`);
    assert.doesNotMatch(run.stdout, CONTROL, `stdout of ${argv.join(" ")}`);
    assert.doesNotMatch(run.stderr, CONTROL, `stderr of ${argv.join(" ")}`);
  }
  const ambiguous = await runCli(["info", "evil"], { fs });
  assert.match(ambiguous.stderr, /matches 2 sessions/);
  assert.match((await runCli(["show", OTHER], { fs })).stderr, /^note: the branch starts at "z9\uFFFD\[31m\uFFFD": its parent "gone\uFFFD/);
  // JSON keeps the text as written.
  const info = JSON.parse((await runCli(["info", PATH, "--json"], { fs })).stdout);
  assert.equal(info.name, `name ${E}`);
  assert.equal(info.id, `evil${E}id`);
});

test("oneLine and printable: what each keeps", () => {
  assert.equal(oneLine("a\nb\t\u001b[1m\u009b"), "a b [1m ");
  assert.equal(printable("a\r\nb\tc\u001b[1m\u0007"), "a\nb\tc\uFFFD[1m\uFFFD");
});
