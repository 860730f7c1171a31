/**
 * Tests for `entryLine`: pi's /tree content rule for every entry type and role, tool
 * results named by their calls, clipping, hostile values, and drawing spans to a width.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { collectToolCalls, entryLine, readRange, renderSpans, toolCallText, truncateSpans } from "../../src/render/entry-line.ts";
import type { SessionEntry } from "../../src/core/mod.ts";
import {
  assistantMsg,
  branchSummary,
  compaction,
  contextEdit,
  custom,
  customMessage,
  entry,
  label,
  message,
  modelChange,
  sessionInfo,
  systemMsg,
  thinking,
  toolResultMsg,
  user,
} from "../core/_builders.ts";

test("entryLine() renders every entry type as pi's /tree does", () => {
  const cases: [SessionEntry, string][] = [
    [user("u", null, "hi\tthere\nyou"), "user: hi there you"],
    [message("a", null, assistantMsg("  done  ")), "assistant: done"],
    [message("a", null, assistantMsg("", { content: [], stopReason: "aborted" })), "assistant: (aborted)"],
    [message("a", null, assistantMsg("", { content: [], stopReason: "error", errorMessage: "x".repeat(100) })), "assistant: " + "x".repeat(80)],
    [message("a", null, assistantMsg("", { content: [] })), "assistant: (no content)"],
    [message("s", null, systemMsg("You are pi")), "[system]"],
    [message("b", null, { role: "bashExecution", command: "ls -la\n", output: "", exitCode: 0 }), "[bash]: ls -la"],
    [message("x", null, { role: "hookMessage" }), "[hookMessage]"],
    [customMessage("c", null, [{ type: "text", text: "a" }, { type: "text", text: "b" }]), "[ext]: ab"],
    [compaction("k", null, { tokensBefore: 50_499 }), "[compaction: 50k tokens]"],
    [compaction("k", null, { tokensBefore: "lots" }), "[compaction: ?k tokens]"],
    [branchSummary("b", null, "x", "went\nelsewhere"), "[branch summary]: went elsewhere"],
    [modelChange("m", null, "openai", "gpt-5"), "[model: gpt-5]"],
    [thinking("t", null, "high"), "[thinking: high]"],
    [custom("c", null), "[custom: ext]"],
    [contextEdit("e", null, "u1", null), "[context omit: u1]"],
    [contextEdit("e", null, "u1", { content: "new" }), "[context replace: u1]"],
    [label("l", null, "u1", "keep"), "[label: keep]"],
    [label("l", null, "u1"), "[label: (cleared)]"],
    [sessionInfo("i", null, "My work"), "[title: My work]"],
    [sessionInfo("i", null, ""), "[title: empty]"],
    [entry("usage", "g", null, { kind: "cache", provider: "anthropic", model: "claude" }), "[usage: cache anthropic/claude]"],
    [entry("future_thing", "f", null), "[future_thing]"],
    [message("m", null, null), "[message]"],
  ];
  for (const [e, expected] of cases) assert.equal(entryLine(e), expected, `${e.type} ${e.id}`);
});

test("entryLine() clips long user text at 200 characters, never inside a surrogate pair", () => {
  assert.equal(entryLine(user("u", null, "a".repeat(300))), "user: " + "a".repeat(200));
  const clipped = entryLine(user("u", null, "a".repeat(199) + "😀"));
  assert.equal(clipped, "user: " + "a".repeat(199));
});

test("entryLine() names a tool result by its call, else by the tool name", () => {
  const call = (id: string, name: string, args: unknown) => ({ type: "toolCall", id, name, arguments: args });
  const calls = collectToolCalls([
    message("a", null, assistantMsg("", {
      content: [
        call("c1", "read", { path: "/home/u/p/a.ts", offset: 10, limit: 5 }),
        call("c2", "grep", { pattern: "TODO", path: "src" }),
        call("c3", "mcp_search", { query: "a very long query that goes on and on and on" }),
        call("c4", "broken", "not an object"),
      ],
    })),
  ]);
  const result = (toolCallId: string) => message("r", null, toolResultMsg("", { toolCallId, toolName: "read" }));
  const options = { toolCalls: calls, home: "/home/u" };
  assert.equal(entryLine(result("c1"), options), "[read: ~/p/a.ts:10-14]");
  assert.equal(entryLine(result("c2"), options), "[grep: /TODO/ in src]");
  assert.equal(entryLine(result("c3"), options), '[mcp_search: {"query":"a very long query that goes on…]');
  assert.equal(entryLine(result("c4"), options), "[broken: {}]");
  assert.equal(entryLine(result("nope"), options), "[read]");
  assert.equal(entryLine(message("r", null, toolResultMsg("", { toolCallId: "x", toolName: undefined })), options), "[tool]");
});

test("toolCallText() follows pi's format for the built-in tools", () => {
  assert.equal(toolCallText("read", { file_path: "a.ts" }), "[read: a.ts]");
  assert.equal(toolCallText("write", { path: "b.ts" }), "[write: b.ts]");
  assert.equal(toolCallText("edit", { path: "c.ts" }), "[edit: c.ts]");
  assert.equal(toolCallText("bash", { command: "x".repeat(60) }), `[bash: ${"x".repeat(50)}…]`);
  assert.equal(toolCallText("find", { pattern: "*.ts" }), "[find: *.ts in .]");
  assert.equal(toolCallText("ls", {}), "[ls: .]");
});

test("readRange() matches pi's line ranges, including strings and malformed values", () => {
  assert.equal(readRange(undefined, undefined), "");
  assert.equal(readRange(5, undefined), ":5");
  assert.equal(readRange(undefined, 10), ":1-10");
  assert.equal(readRange("3", "2"), ":3-4");
  assert.equal(readRange("x", 2), "");
  assert.equal(readRange(1, "y"), "");
  assert.equal(readRange(1, 0), ":1");
});

test("truncateSpans() counts wide characters as two cells", () => {
  const spans = [{ text: "ab", tone: "plain" as const }, { text: "漢字漢字", tone: "accent" as const }];
  assert.deepEqual(truncateSpans(spans, 7), [{ text: "ab", tone: "plain" }, { text: "漢字", tone: "accent" }, { text: "…", tone: "accent" }]);
  assert.deepEqual(truncateSpans(spans, 10), spans);
  assert.deepEqual(truncateSpans(spans, 0), []);
});

test("renderSpans() cuts to the width and leaves an unlimited width alone", () => {
  const spans = [{ text: "user: ", tone: "accent" as const }, { text: "hello world", tone: "plain" as const }];
  assert.equal(renderSpans(spans, 10), "user: hel…");
  assert.equal(renderSpans(spans, Infinity), "user: hello world");
});
