/**
 * Tests for `checkEntries` and `checkSession`: each entry-level check on its own, clean
 * files without issues, versions, and the merged, line-ordered result.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkEntries, checkSession, parseSession } from "../../../src/core/mod.ts";
import {
  assistant,
  branchSummary,
  compaction,
  contextEdit,
  custom,
  customMessage,
  entry,
  header,
  jsonl,
  label,
  message,
  modelChange,
  sessionInfo,
  thinking,
  user,
} from "../_builders.ts";

function codes(text: string): [number, string, string | undefined][] {
  return checkEntries(parseSession(text)).map((i) => [i.line, i.code, i.entryId]);
}

test("checkEntries() finds nothing wrong with a well-formed file of every entry type", () => {
  const text = jsonl(
    header(),
    modelChange("m1", null, "anthropic", "claude"),
    thinking("t1", "m1", "high"),
    user("u1", "t1", "hi"),
    assistant("a1", "u1", "hello"),
    compaction("k1", "a1", { firstKeptEntryId: "u1" }),
    branchSummary("b1", "k1", "root", "back"),
    branchSummary("b2", "b1", "u1", "again"),
    custom("c1", "b2"),
    customMessage("c2", "c1", "note"),
    label("l1", "c2", "u1", "start"),
    label("l2", "l1", "u1"),
    sessionInfo("i1", "l2", "name"),
    contextEdit("e1", "i1", "u1", null),
    contextEdit("e2", "e1", "u1", { content: [{ type: "text", text: "x" }] }),
    entry("usage", "g1", "e2", { kind: "cache", provider: "p", model: "m", usage: {} }),
  );
  assert.deepEqual(codes(text), []);
  assert.deepEqual(checkSession(parseSession(text)), []);
});

test("checkEntries() reports missing and malformed common fields", () => {
  const text = jsonl(header(), { id: "a", parentId: null, timestamp: "2024-01-01T00:00:00Z" }, { type: 5, id: "b", parentId: null }, entry("custom", "", null, { customType: "x" }, { timestamp: "1/2/2024" }));
  assert.deepEqual(codes(text), [
    [2, "missing-field", "a"],
    [3, "bad-field", "b"],
    [3, "missing-field", "b"],
    [4, "bad-field", ""],
    [4, "bad-field", ""],
  ]);
});

test("checkEntries() reports unknown types and roles, and malformed messages", () => {
  const text = jsonl(header(), entry("poll", "p", null), message("m1", null, { role: "robot" }), message("m2", null, { content: "no role" }), message("m3", null, "text"));
  assert.deepEqual(codes(text), [
    [2, "unknown-type", "p"],
    [3, "unknown-role", "m1"],
    [4, "missing-field", "m2"],
    [5, "bad-field", "m3"],
  ]);
});

test("checkEntries() checks compactions: fields, retainedTail and firstKeptEntryId on the path", () => {
  const text = jsonl(
    header(),
    user("u1", null, "a"),
    user("u2", null, "other root"),
    compaction("k1", "u1", { firstKeptEntryId: "u2" }),
    compaction("k2", "k1", { firstKeptEntryId: "k2" }),
    compaction("k3", "k2", { summary: null, tokensBefore: "1k", retainedTail: "x", firstKeptEntryId: 3 }),
    compaction("k4", "k3", { firstKeptEntryId: "u1", retainedTail: [] }),
  );
  assert.deepEqual(codes(text), [
    [4, "compaction-off-path", "k1"],
    [5, "compaction-off-path", "k2"],
    [6, "bad-field", "k3"],
    [6, "bad-field", "k3"],
    [6, "bad-field", "k3"],
    [6, "bad-field", "k3"],
  ]);
});

test("checkEntries() notes a branch summary from an unknown entry, and checks settings fields", () => {
  const text = jsonl(
    header(),
    branchSummary("b1", null, "gone", "x"),
    entry("branch_summary", "b2", "b1", { summary: "x" }),
    entry("label", "l1", "b2", { label: 3 }),
    entry("model_change", "m1", "l1", { provider: "p" }),
    entry("thinking_level_change", "t1", "m1", { thinkingLevel: 1 }),
    entry("custom_message", "c1", "t1", { customType: "x", content: 5 }),
    entry("context_edit", "e1", "c1", { targetId: "b1", replacement: { text: "no content" } }),
  );
  assert.deepEqual(codes(text), [
    [2, "unknown-from-id", "b1"],
    [3, "missing-field", "b2"],
    [4, "missing-field", "l1"],
    [4, "bad-field", "l1"],
    [5, "missing-field", "m1"],
    [6, "bad-field", "t1"],
    [7, "bad-field", "c1"],
    [8, "bad-field", "e1"],
  ]);
});

test("checkEntries() reports old, newer and malformed versions on line 1", () => {
  assert.deepEqual(codes(jsonl(header("s", null))), [[1, "legacy-version", undefined]]);
  assert.deepEqual(codes(jsonl(header("s", 2))), [[1, "legacy-version", undefined]]);
  assert.deepEqual(codes(jsonl(header("s", 9))), [[1, "version-newer", undefined]]);
  // pi reads a numeric string; a migrated header no longer shows the string, so only version 3 keeps it.
  assert.deepEqual(codes(jsonl(header("s", 3, { version: "3" }))).map(([line, code]) => [line, code]), [[1, "bad-field"]]);
  assert.deepEqual(checkEntries(parseSession(jsonl(header("s", 3, { version: "3" }))))[0].message, `The header's "version" is "3", not a number; it is read as version 3`);
  assert.deepEqual(codes(jsonl(header("s", 3, { cwd: undefined, timestamp: 5 }))), [[1, "missing-field", undefined], [1, "bad-field", undefined]]);
});

test("checkSession() merges reader, tree and entry issues in line order", () => {
  const text = jsonl(header(), user("u1", "nope", "a"), entry("poll", "p", "u1")) + "{oops\n" + JSON.stringify(label("l1", "p", "ghost", "x"));
  assert.deepEqual(checkSession(parseSession(text)).map((i) => [i.line, i.code]), [
    [2, "missing-parent"],
    [3, "unknown-type"],
    [4, "malformed-json"],
    [5, "missing-newline"],
    [5, "label-target-missing"],
  ]);
});

test("checkSession() of a file that is not a session returns the reader's issues only", () => {
  assert.deepEqual(checkSession(parseSession("")).map((i) => i.code), ["empty-file"]);
  assert.deepEqual(checkSession(parseSession('{"a":1}\n')).map((i) => i.code), ["not-a-session"]);
});
