/**
 * Snippets and entry documents: one safe line around the first match, marks that point at
 * the matches; and which texts of which entries are searchable.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { entryDocs } from "../../../src/core/search/entry-docs.ts";
import { matchText, parseSearchQuery } from "../../../src/core/search/query.ts";
import { makeSnippet } from "../../../src/core/search/snippet.ts";

const marked = (s: { text: string; marks: [number, number][] }) => s.marks.map(([a, b]) => s.text.slice(a, b));

test("makeSnippet() cuts around the first match and marks every match inside", () => {
  const text = "start " + "filler ".repeat(40) + "the needle and another needle " + "tail ".repeat(40);
  const snippet = makeSnippet(text, matchText(parseSearchQuery("needle"), text)!, 60);
  assert.ok(snippet.text.startsWith("…") && snippet.text.endsWith("…"));
  assert.deepEqual(marked(snippet), ["needle", "needle"]);
  assert.ok(snippet.text.length <= 62);
});

test("makeSnippet() collapses whitespace and control characters into single spaces", () => {
  const text = "a\n\n\tb\u001b[31m red \u0007 needle";
  const snippet = makeSnippet(text, matchText(parseSearchQuery("needle"), text)!);
  assert.equal(snippet.text, "a b [31m red needle");
  assert.deepEqual(marked(snippet), ["needle"]);
});

test("makeSnippet() never splits a surrogate pair", () => {
  const text = "🚀".repeat(50) + "needle";
  const snippet = makeSnippet(text, matchText(parseSearchQuery("needle"), text)!, 20);
  assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(snippet.text));
  assert.deepEqual(marked(snippet), ["needle"]);
});

test("entryDocs() covers messages, thinking, tool calls, summaries, labels and names", () => {
  const docs = (entry: Record<string, unknown>) => entryDocs(entry).map((d) => [d.role, d.part, d.text]);
  assert.deepEqual(docs({ type: "message", message: { role: "assistant", content: [
    { type: "text", text: "hi" },
    { type: "thinking", thinking: "hmm" },
    { type: "toolCall", name: "bash", arguments: { command: "ls" } },
  ] } }), [["assistant", "text", 'hi\nbash {"command":"ls"}'], ["assistant", "thinking", "hmm"]]);
  assert.deepEqual(docs({ type: "message", message: { role: "bashExecution", command: "ls", output: "a.ts" } }), [["bashExecution", "text", "ls\na.ts"]]);
  assert.deepEqual(docs({ type: "message", message: { role: "hookMessage", content: "old" } }), [["custom", "text", "old"]]);
  assert.deepEqual(docs({ type: "message", message: { role: "system", content: "prompt" } }), []);
  assert.deepEqual(docs({ type: "compaction", summary: "sum" }), [["summary", "text", "sum"]]);
  assert.deepEqual(docs({ type: "session_info", name: "" }), []);
  assert.deepEqual(docs({ type: "custom_message", content: [{ type: "text", text: "c" }] }), [["custom", "text", "c"]]);
});
