/**
 * Tests for `show`: the text transcript (headers, folded thinking, tool calls, abbreviated
 * output, quoted summaries, settings lines), --usage, --thinking, --leaf, --filter, Markdown,
 * JSON, bad references, a broken parent chain, and that it never writes.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  assistant,
  assistantMsg,
  at,
  branchSummary,
  compaction,
  customMessage,
  entry,
  label,
  message,
  modelChange,
  toolResultMsg,
  user,
} from "../core/_builders.ts";
import { addSession, fingerprint, memoryFs, runCli, writeText } from "./_harness.ts";

const USAGE = { input: 1200, output: 56, cacheRead: 1000, cacheWrite: 0, totalTokens: 2256, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.01234 } };
const FIFTEEN_LINES = Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join("\n");

function entries() {
  return [
    modelChange("m1", null, "anthropic", "claude-x", { timestamp: at(1) }),
    user("u1", "m1", "Please read a file", { timestamp: at(2) }),
    message("a1", "u1", assistantMsg("", {
      content: [
        { type: "thinking", thinking: "let me think" },
        { type: "text", text: "Reading." },
        { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts", offset: 1 } },
      ],
      usage: USAGE,
      stopReason: "toolUse",
    }), { timestamp: at(3) }),
    message("t1", "a1", toolResultMsg(FIFTEEN_LINES, { toolCallId: "c1", toolName: "read" }), { timestamp: at(4) }),
    message("b1", "t1", { role: "bashExecution", command: "ls", output: "a\nb", exitCode: 1, cancelled: false, truncated: false, timestamp: 0 }, { timestamp: at(5) }),
    compaction("k1", "b1", { summary: "We did stuff\nand more", tokensBefore: 50_400, firstKeptEntryId: "t1" }, { timestamp: at(6) }),
    branchSummary("s1", "k1", "zz", "Tried X", { timestamp: at(7) }),
    customMessage("cm", "s1", "remember", { customType: "note", timestamp: at(8) }),
    user("u2", "a1", "other branch", { timestamp: at(9) }),
    label("l1", "cm", "u1", "start", { timestamp: at(10) }),
    entry("usage", "g1", "l1", { kind: "cache", provider: "anthropic", model: "claude-x", usage: USAGE }, { timestamp: at(11) }),
    assistant("a2", "g1", "Done.", { timestamp: at(12) }),
  ];
}

async function setup(list: object[] = entries()) {
  const fs = memoryFs();
  const path = await addSession(fs, "bbbb1111-0000", list);
  return { fs, path };
}

const LINE_TIME = "2024-01-01 00:00";

test("show prints the active branch as a transcript", async () => {
  const { fs } = await setup();
  const r = await runCli(["show", "bbbb"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.equal(
    r.stdout,
    [
      `·· [model: claude-x] · ${LINE_TIME} · m1`,
      "",
      `── user · ${LINE_TIME} · u1 [start]`,
      "Please read a file",
      "",
      `── assistant · ${LINE_TIME} · a1`,
      "[thinking: 12 chars]",
      "Reading.",
      '→ read(path="src/a.ts", offset=1)',
      "",
      `── tool result: read · ${LINE_TIME} · t1`,
      ...FIFTEEN_LINES.split("\n").slice(0, 10),
      "… (5 more lines)",
      "",
      `── bash · ${LINE_TIME} · b1`,
      "$ ls",
      "a",
      "b",
      "exit code 1",
      "",
      `── compaction · ${LINE_TIME} · k1`,
      "> We did stuff",
      "> and more",
      "(50,400 tokens before)",
      "",
      `── branch summary · ${LINE_TIME} · s1`,
      "> Tried X",
      "",
      `── custom: note · ${LINE_TIME} · cm`,
      "remember",
      "",
      `·· [label: start] · ${LINE_TIME} · l1`,
      "",
      `── assistant · ${LINE_TIME} · a2`,
      "Done.",
      "",
    ].join("\n"),
  );
});

test("show --thinking --usage adds thinking, token and cost lines, and usage entries", async () => {
  const { fs } = await setup();
  const r = await runCli(["show", "bbbb", "--thinking", "--usage"], { fs });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split("\n");
  assert.ok(lines.includes("let me think"));
  assert.ok(!lines.includes("[thinking: 12 chars]"));
  assert.ok(lines.includes("usage: anthropic/claude-test · 2,200 in (1,000 cached) / 56 out · $0.0123"));
  assert.ok(lines.includes(`·· [usage: cache] anthropic/claude-x · 2,200 in (1,000 cached) / 56 out · $0.0123 · ${LINE_TIME} · g1`));
  assert.ok(lines.includes("usage: anthropic/claude-test · 1 in / 1 out · $0.0000"));
});

test("show --leaf takes an id prefix or label:NAME", async () => {
  const { fs } = await setup();
  const byId = await runCli(["show", "bbbb", "--leaf", "u2"], { fs });
  assert.equal(byId.code, 0, byId.stderr);
  assert.match(byId.stdout, /── user · 2024-01-01 00:00 · u2\nother branch\n$/);
  assert.doesNotMatch(byId.stdout, /Done\./);
  const byLabel = await runCli(["show", "bbbb", "--leaf", "label:start"], { fs });
  assert.equal(byLabel.stdout, `·· [model: claude-x] · ${LINE_TIME} · m1\n\n── user · ${LINE_TIME} · u1 [start]\nPlease read a file\n`);
});

test("show --leaf with an unknown entry exits 2", async () => {
  const { fs, path } = await setup();
  const r = await runCli(["show", "bbbb", "--leaf", "nope"], { fs });
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, `pi-session: Entry "nope" not found in ${path}\nhint: List entries with \`pi-session tree <session>\`\n`);
  const ambiguous = await runCli(["show", "bbbb", "--leaf", "a"], { fs });
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.stderr, /Entry reference "a" matches 2 entries/);
});

test("show --filter applies the tree's modes to the branch", async () => {
  const { fs } = await setup();
  const userOnly = await runCli(["show", "bbbb", "--filter", "user-only"], { fs });
  assert.equal(userOnly.stdout, `── user · ${LINE_TIME} · u1 [start]\nPlease read a file\n`);
  const noTools = await runCli(["show", "bbbb", "--filter", "no-tools"], { fs });
  assert.doesNotMatch(noTools.stdout, /tool result|model: claude-x|label: start/);
  assert.match(noTools.stdout, /── bash/);
  const json = await runCli(["show", "bbbb", "--filter", "labeled-only", "--json"], { fs });
  assert.deepEqual(JSON.parse(json.stdout).entries.map((e: { id: string }) => e.id), ["u1"]);
});

test("show --format json and --json print {path, leafId, entries} as stored", async () => {
  const { fs, path } = await setup();
  const expected = entries().filter((e) => ["m1", "u1", "a1", "t1", "b1", "k1", "s1", "cm", "l1", "g1", "a2"].includes(e.id));
  for (const argv of [["show", "bbbb", "--format", "json"], ["--json", "show", "bbbb"]]) {
    const r = await runCli(argv, { fs });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { schemaVersion: 1, path, leafId: "a2", entries: JSON.parse(JSON.stringify(expected)) });
  }
});

test("show --format markdown uses headings, fenced blocks, details and quotes", async () => {
  const { fs, path } = await setup([
    user("u1", null, "Hi", { timestamp: at(1) }),
    message("a1", "u1", assistantMsg("", {
      content: [{ type: "thinking", thinking: "ponder" }, { type: "text", text: "Look:" }, { type: "toolCall", id: "c1", name: "bash", arguments: { command: "echo ```" } }],
    }), { timestamp: at(2) }),
    message("t1", "a1", toolResultMsg("```\nok", { toolCallId: "c1", toolName: "bash" }), { timestamp: at(3) }),
    compaction("k1", "t1", { summary: "One\n\nTwo", tokensBefore: 10 }, { timestamp: at(4) }),
    modelChange("m1", "k1", "openai", "gpt-5", { timestamp: at(5) }),
  ]);
  const r = await runCli(["show", "bbbb", "--format", "markdown", "--thinking"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "# Session bbbb1111-0000",
      "",
      `- File: \`${path}\``,
      "- Leaf: `m1`",
      "",
      `## User · ${LINE_TIME} · \`u1\``,
      "",
      "Hi",
      "",
      `## Assistant · ${LINE_TIME} · \`a1\``,
      "",
      "<details>",
      "<summary>Thinking</summary>",
      "",
      "ponder",
      "",
      "</details>",
      "",
      "Look:",
      "",
      "**→ `bash`**",
      "",
      "````json",
      "{",
      '  "command": "echo ```"',
      "}",
      "````",
      "",
      `## Tool result: bash · ${LINE_TIME} · \`t1\``,
      "",
      "````bash",
      "```",
      "ok",
      "````",
      "",
      `## Compaction · ${LINE_TIME} · \`k1\``,
      "",
      "> One",
      ">",
      "> Two",
      "",
      "*(10 tokens before)*",
      "",
      `*\`[model: gpt-5]\` · ${LINE_TIME} · \`m1\`*`,
      "",
    ].join("\n"),
  );
  const folded = await runCli(["show", "bbbb", "--format", "markdown"], { fs });
  assert.match(folded.stdout, /\n\*\\\[thinking: 6 chars\\\]\*\n/);
});

test("show notes a broken parent chain and shows what it could walk", async () => {
  const { fs } = await setup([
    user("u1", "gone", "orphan", { timestamp: at(1) }),
    assistant("a1", "u1", "still here", { timestamp: at(2) }),
  ]);
  const r = await runCli(["show", "bbbb"], { fs });
  assert.equal(r.code, 0);
  assert.equal(r.stderr, 'note: the branch starts at "u1": its parent "gone" is not in the file\n');
  assert.equal(r.stdout, `── user · ${LINE_TIME} · u1\norphan\n\n── assistant · ${LINE_TIME} · a1\nstill here\n`);
  const quiet = await runCli(["-q", "show", "bbbb"], { fs });
  assert.equal(quiet.stderr, "");
});

test("show stops at a parent cycle instead of hanging", async () => {
  const { fs } = await setup([user("c1", "c2", "loop a", { timestamp: at(1) }), user("c2", "c1", "loop b", { timestamp: at(2) })]);
  const r = await runCli(["show", "bbbb"], { fs });
  assert.equal(r.code, 0);
  assert.match(r.stderr, /leads back into a parent cycle/);
  assert.equal(r.stdout, `── user · ${LINE_TIME} · c1\nloop a\n\n── user · ${LINE_TIME} · c2\nloop b\n`);
});

test("show never writes, even to a file without a final newline", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "cccc1111", [], { text: JSON.stringify({ type: "session", version: 3, id: "cccc1111", timestamp: at(0), cwd: "/work/proj" }) + "\n" + JSON.stringify(user("u1", null, "hi")) });
  const before = await fingerprint(fs, path);
  for (const format of ["text", "markdown", "json"]) assert.equal((await runCli(["show", "cccc", "--format", format], { fs })).code, 0);
  assert.equal(await fingerprint(fs, path), before);
});

test("show of an unknown session exits 2, of a non-session file exits 3", async () => {
  const { fs } = await setup();
  const missing = await runCli(["show", "nothing"], { fs });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^pi-session: No session found matching "nothing"\n/);
  await writeText(fs, "/work/proj/empty.jsonl", "");
  const empty = await runCli(["show", "empty.jsonl"], { fs });
  assert.equal(empty.code, 3);
  assert.equal(empty.stderr, 'pi-session: /work/proj/empty.jsonl is not a pi session: the file is empty\nhint: Pass a .jsonl file written by pi (its first line is a {"type":"session",…} header)\n');
});

test("show of a directory, or of a pipe or device, exits 3 and says what it is", async () => {
  const { fs } = await setup();
  await fs.mkdir("/work/proj/dir.jsonl", { recursive: true });
  const dir = await runCli(["show", "dir.jsonl"], { fs });
  assert.equal(dir.code, 3);
  assert.match(dir.stderr, /^pi-session: \/work\/proj\/dir\.jsonl is a directory, not a session file\n/);
  // What a shell's `<(…)` or /dev/stdin looks like to stat: neither a file nor a directory.
  const pipeFs = Object.create(fs, {
    stat: { value: async (path: string) => path === "/dev/fd/63" ? { size: 0, mtimeMs: 0, isFile: false, isDirectory: false, mode: 0o600 } : fs.stat(path) },
  });
  const pipe = await runCli(["show", "/dev/fd/63"], { fs: pipeFs });
  assert.equal(pipe.code, 3);
  assert.equal(pipe.stderr, "pi-session: /dev/fd/63 is a pipe or a device, not a session file\nhint: Save the session to a file first (`… > session.jsonl`) and pass that file\n");
});

test("show --help lists its options and examples", async () => {
  const r = await runCli(["show", "--help"]);
  assert.equal(r.code, 0);
  for (const flag of ["--leaf <entry>", "--filter <mode>", "--format <format>", "--thinking", "--usage", "Examples:"]) assert.ok(r.stdout.includes(flag), flag);
});

test("show makes escape sequences and other control characters in the data harmless", async () => {
  const { fs } = await setup([
    user("u1", null, "red \x1b[31mtext\x1b[0m\r\nnext\tline", { timestamp: at(1) }),
    message("a1", "u1", assistantMsg("", { content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "echo \x1b]0;title\x07" } }] }), { timestamp: at(2) }),
    message("b1", "a1", { role: "bashExecution", command: "printf '\x1b[2J'", output: "\x1b[2J", exitCode: 0 }, { timestamp: at(3) }),
  ]);
  const r = await runCli(["show", "bbbb"], { fs });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
  assert.match(r.stdout, /red �\[31mtext�\[0m\nnext\tline\n/);
  assert.match(r.stdout, /→ bash\(command="echo \\u001b\]0;title\\u0007"\)/);
  assert.match(r.stdout, /\$ printf '�\[2J'\n�\[2J\n/);
});
