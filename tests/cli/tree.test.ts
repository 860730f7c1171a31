/**
 * Tests for `tree`: pi's /tree layout printed (branches, active path first, labels, several
 * roots), every filter, `--json`, truncation to the terminal, colours, and bad input.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { run } from "../../src/cli/run.ts";
import { assistant, assistantMsg, at, label, message, modelChange, toolResultMsg, user } from "../core/_builders.ts";
import { addSession, harnessDeps, memoryFs, runCli, writeText } from "./_harness.ts";

const READ_CALL = { type: "toolCall", id: "c1", name: "read", arguments: { path: "/home/u/src/a.ts", offset: 1, limit: 40 } };
const BASH_CALL = { type: "toolCall", id: "c2", name: "bash", arguments: { command: "npm test" } };

/**
 * m1 (model) ─ u1 [start] ─ a1 ─┬─ t1 (read) ─ a2 (tool call only) ─ t2 (bash) ─ l1 (label) ─ a3  ← leaf
 *                               └─ u2 (older than t1, so only the active-first rule puts t1 first)
 */
function branchy() {
  return [
    modelChange("m1", null, "anthropic", "claude-x", { timestamp: at(1) }),
    user("u1", "m1", "hello\nthere", { timestamp: at(2) }),
    message("a1", "u1", assistantMsg("Reading.", { content: [{ type: "text", text: "Reading." }, READ_CALL], stopReason: "toolUse" }), { timestamp: at(3) }),
    message("t1", "a1", toolResultMsg("1: x", { toolCallId: "c1", toolName: "read" }), { timestamp: at(5) }),
    message("a2", "t1", assistantMsg("", { content: [BASH_CALL], stopReason: "toolUse" }), { timestamp: at(6) }),
    message("t2", "a2", toolResultMsg("ok", { toolCallId: "c2", toolName: "bash" }), { timestamp: at(7) }),
    user("u2", "a1", "branch two", { timestamp: at(4) }),
    label("l1", "t2", "u1", "start", { timestamp: at(8) }),
    assistant("a3", "l1", "done", { timestamp: at(9) }),
  ];
}

async function setup(entries: object[] = branchy()) {
  const fs = memoryFs();
  const path = await addSession(fs, "aaaa1111-0000", entries);
  return { fs, path };
}

test("tree draws branches, the active path first, labels and tool results as pi does", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  // Entry ids first, aligned: what fork --at, label and --leaf take.
  assert.equal(
    r.stdout,
    [
      "u1  • [start] user: hello there",
      "a1  • assistant: Reading.",
      "t1  ├─ • [read: ~/src/a.ts:1-40]",
      "t2  │     • [bash: npm test]",
      "a3  │     • assistant: done",
      "u2  └─ user: branch two",
      "(6 entries)",
      "",
    ].join("\n"),
  );
  const bare = await runCli(["tree", "aaaa", "--no-ids"], { fs });
  assert.equal(bare.stdout, r.stdout.replace(/^\w\w {2}/gm, ""));
});

test("tree prints ids unique among all the session's entries, aligned and dim, and each opens its entry", async () => {
  const long = (id: string) => `${id}-0000-0000`;
  const { fs } = await setup([
    user(long("abcd1234"), null, "first", { timestamp: at(1) }),
    assistant(long("abcd1235"), long("abcd1234"), "second", { timestamp: at(2) }),
    user("abcd12", long("abcd1235"), "third", { timestamp: at(3) }),
    label("f00d", "abcd12", long("abcd1234"), "mark", { timestamp: at(4) }),
  ]);
  const r = await runCli(["tree", "aaaa"], { fs });
  assert.equal(r.code, 0, r.stderr);
  // The label entry is hidden, yet counted: ids stay unique among every entry.
  assert.deepEqual(r.stdout.split("\n").slice(0, 3), ["abcd1234  • [mark] user: first", "abcd1235  • assistant: second", "abcd12    • user: third"]);
  for (const [short, full] of [["abcd1234", long("abcd1234")], ["abcd1235", long("abcd1235")], ["abcd12", "abcd12"]]) {
    const shown = await runCli(["show", "aaaa", "--leaf", short, "--format", "json"], { fs });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).leafId, full);
  }
  const out = { stdout: "", stderr: "" };
  await run(["tree", "aaaa"], { ...harnessDeps({ fs, stdoutIsTTY: true }, out), columns: 80 });
  assert.match(out.stdout, /^\x1b\[2mabcd1234\x1b\[22m {2}/);
});

test("tree --filter all shows settings entries, with the [all] tag", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--no-ids", "--filter", "all"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "• [model: claude-x]",
      "• [start] user: hello there",
      "• assistant: Reading.",
      "├─ • [read: ~/src/a.ts:1-40]",
      "│     • [bash: npm test]",
      "│     • [label: start]",
      "│     • assistant: done",
      "└─ user: branch two",
      "(8 entries) [all]",
      "",
    ].join("\n"),
  );
});

test("tree --filter no-tools hides tool results; children attach to the nearest shown ancestor", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--no-ids", "--filter", "no-tools"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    ["• [start] user: hello there", "• assistant: Reading.", "├─ • assistant: done", "└─ user: branch two", "(4 entries) [no-tools]", ""].join("\n"),
  );
});

test("tree --filter user-only keeps user messages only", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--no-ids", "--filter", "user-only"], { fs });
  assert.equal(r.stdout, ["• [start] user: hello there", "user: branch two", "(2 entries) [user]", ""].join("\n"));
});

test("tree --filter labeled-only keeps labelled entries only", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--no-ids", "--filter", "labeled-only"], { fs });
  assert.equal(r.stdout, ["• [start] user: hello there", "(1 entry) [labeled]", ""].join("\n"));
});

test("tree rejects an unknown filter with exit 2", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--filter", "tools"], { fs });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Allowed choices are default, no-tools, user-only, labeled-only, all/);
});

test("tree --json gives {leafId, filter, rows} with visible parents and depths", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--json", "--filter", "no-tools"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    schemaVersion: 1,
    leafId: "a3",
    filter: "no-tools",
    rows: [
      { id: "u1", parentId: null, depth: 0, type: "message", role: "user", label: "start", active: true, text: "user: hello there" },
      { id: "a1", parentId: "u1", depth: 0, type: "message", role: "assistant", active: true, text: "assistant: Reading." },
      { id: "a3", parentId: "a1", depth: 1, type: "message", role: "assistant", active: true, text: "assistant: done" },
      { id: "u2", parentId: "a1", depth: 1, type: "message", role: "user", active: false, text: "user: branch two" },
    ],
  });
});

test("tree --json marks settings rows without a role", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "aaaa", "--json", "--filter", "all"], { fs });
  const rows = JSON.parse(r.stdout).rows;
  assert.deepEqual(rows[0], { id: "m1", parentId: null, depth: 0, type: "model_change", active: true, text: "[model: claude-x]" });
  assert.deepEqual(rows.find((row: { id: string }) => row.id === "l1"), { id: "l1", parentId: "t2", depth: 2, type: "label", active: true, text: "[label: start]" });
});

test("tree survives a parent cycle and a missing parent: several roots, the active one first", async () => {
  const { fs } = await setup([
    user("r1", null, "first root", { timestamp: at(1) }),
    assistant("r1a", "r1", "ok", { timestamp: at(2) }),
    user("x1", "gone", "orphan", { timestamp: at(3) }),
    user("c1", "c2", "loop a", { timestamp: at(4) }),
    user("c2", "c1", "loop b", { timestamp: at(5) }),
  ]);
  const r = await runCli(["tree", "aaaa", "--no-ids"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    ["• user: loop a", "   • user: loop b", "user: first root", "   assistant: ok", "user: orphan", "(5 entries)", ""].join("\n"),
  );
  assert.match(r.stderr, /has 2 problems; run `pi-session check` on it/);
});

test("tree shows an aborted or failed assistant turn without text, and hides a plain tool-call turn", async () => {
  const { fs } = await setup([
    user("u1", null, "go", { timestamp: at(1) }),
    message("a1", "u1", assistantMsg("", { content: [], stopReason: "aborted" }), { timestamp: at(2) }),
    message("a2", "u1", assistantMsg("", { content: [], stopReason: "error", errorMessage: "overloaded\nretry" }), { timestamp: at(3) }),
    message("a3", "u1", assistantMsg("", { content: [BASH_CALL], stopReason: "toolUse" }), { timestamp: at(4) }),
    user("u2", "u1", "last", { timestamp: at(5) }),
    message("a4", "u2", assistantMsg("", { content: [], stopReason: "stop" }), { timestamp: at(6) }),
  ]);
  const r = await runCli(["tree", "aaaa", "--no-ids"], { fs });
  assert.equal(
    r.stdout,
    [
      "• user: go",
      "├─ • user: last",
      "│     • assistant: (no content)",
      "├─ assistant: (aborted)",
      "└─ assistant: overloaded retry",
      "(5 entries)",
      "",
    ].join("\n"),
  );
});

test("tree cuts rows to the terminal width with …", async () => {
  const { fs } = await setup();
  const out = { stdout: "", stderr: "" };
  const deps = { ...harnessDeps({ fs, stdoutIsTTY: true, env: { NO_COLOR: "1" } }, out), columns: 20 };
  assert.equal(await run(["tree", "aaaa", "--no-ids"], deps), 0);
  assert.deepEqual(out.stdout.split("\n"), [
    "• [start] user: hel…",
    "• assistant: Readin…",
    "├─ • [read: ~/src/a…",
    "│     • [bash: npm …",
    "│     • assistant: …",
    "└─ user: branch two",
    "(6 entries)",
    "",
  ]);
});

test("tree colours a terminal and nothing else", async () => {
  const { fs } = await setup();
  const tty = { stdout: "", stderr: "" };
  await run(["tree", "aaaa"], { ...harnessDeps({ fs, stdoutIsTTY: true }, tty), columns: 200 });
  assert.match(tty.stdout, /\x1b\[/);
  const noColor = { stdout: "", stderr: "" };
  await run(["--no-color", "tree", "aaaa"], { ...harnessDeps({ fs, stdoutIsTTY: true }, noColor), columns: 200 });
  assert.doesNotMatch(noColor.stdout, /\x1b\[/);
  assert.doesNotMatch((await runCli(["tree", "aaaa"], { fs })).stdout, /\x1b\[/);
});

test("tree of a session without entries prints an empty tree", async () => {
  const { fs } = await setup([]);
  const r = await runCli(["tree", "aaaa"], { fs });
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "No entries found\n(0 entries)\n");
});

test("tree with an unknown reference exits 2 and says what to do", async () => {
  const { fs } = await setup();
  const r = await runCli(["tree", "zzzz"], { fs });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, 'pi-session: No session found matching "zzzz"\nhint: Run `pi-session list --all` to see session ids\n');
});

test("tree with an ambiguous prefix exits 2 listing the candidates", async () => {
  const { fs } = await setup();
  await addSession(fs, "aaaa2222-0000", [user("u1", null, "hi")]);
  const r = await runCli(["tree", "aaaa"], { fs });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^pi-session: Session reference "aaaa" matches 2 sessions:\n/);
  assert.match(r.stderr, /aaaa1111-0000/);
  assert.match(r.stderr, /aaaa2222-0000/);
});

test("tree of a file that is not a session exits 3", async () => {
  const fs = memoryFs();
  await writeText(fs, "/work/proj/notes.jsonl", '{"hello":"world"}\n');
  const r = await runCli(["tree", "notes.jsonl"], { fs });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /^pi-session: \/work\/proj\/notes\.jsonl is not a pi session: line 1 should be a session header/);
  const missing = await runCli(["tree", "./nothing.jsonl"], { fs });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /no such file/);
});

test("tree --help shows the purpose, the filter and examples", async () => {
  const r = await runCli(["tree", "--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Print a session's whole entry tree/);
  assert.match(r.stdout, /--filter <mode>/);
  assert.match(r.stdout, /Examples:\n  \$ pi-session tree @/);
});
