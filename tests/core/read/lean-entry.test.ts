/**
 * Lean entries (what `info` and `check` hold of a session) give the same answers as full ones:
 * a differential over the hostile corpus and the example sessions, old path (full entries) vs
 * new (`keep: leanEntry`).
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSession } from "../../../src/core/check/check-entries.ts";
import type { MessageEntry, ToolCall } from "../../../src/core/format/types.ts";
import { listingOfEntries } from "../../../src/core/info/session-info.ts";
import { sessionUsage } from "../../../src/core/info/usage-totals.ts";
import { LEAN_READ, leanEntry, PREVIEW_READ } from "../../../src/core/read/lean-entry.ts";
import { TREE_FILTERS, treeRows } from "../../../src/render/tree-rows.ts";
import { skimLine } from "../../../src/core/read/skim-line.ts";
import { type SessionFile, SessionReader } from "../../../src/core/read/read-session.ts";
import { SessionTree } from "../../../src/core/tree/session-tree.ts";
import { hostileAndExampleFiles } from "../_hostile-corpus.ts";
import { assistant, compaction, entry, header, jsonl, label, message, sessionInfo, user } from "../_builders.ts";

const SLOW = { timeout: 120_000 };

function read(bytes: Uint8Array, options?: typeof LEAN_READ): SessionFile {
  const reader = new SessionReader(options);
  // In pieces, as a file is read, so `keep` runs while lines arrive.
  for (let i = 0; i < bytes.length; i += 65_536) reader.push(bytes.subarray(i, i + 65_536));
  return reader.end();
}

function* cases(): Generator<{ name: string; bytes: Uint8Array }> {
  yield* hostileAndExampleFiles();
  const H = header("lean");
  yield {
    name: "bad fields quoted in messages",
    bytes: new TextEncoder().encode(jsonl(H,
      user("u1", null, "x".repeat(500)),
      compaction("c1", "u1", { summary: 42 as unknown as string, firstKeptEntryId: "u1" }, { tokensBefore: "a long string, longer than forty characters, quoted" }),
      entry("label", "l1", "c1", { targetId: "u1", label: { nested: "x".repeat(100) } }),
      entry("context_edit", "e1", "l1", { targetId: "u1", replacement: { content: 7 } }),
      message("m1", "e1", { role: "assistant", content: [{ type: "text", text: "y".repeat(300) }, { type: "toolCall", id: "t", name: "read", arguments: { path: "z".repeat(90) } }], usage: { input: 3, output: 4, cacheRead: 0, cacheWrite: 0, totalTokens: 7, cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 } }, provider: "p", model: "m", timestamp: 5 }),
      label("l2", "m1", "m1", "keep me"),
      sessionInfo("s1", "l2", "  a name  "),
      assistant("a1", "s1", "done"),
    )),
  };
  // Long strings (the reader cuts them before parsing): only where nothing could change.
  const long = "naïve 日本語 🚀 \"quoted\" \\ tab\t ".repeat(400);
  const enc = (s: string) => new TextEncoder().encode(s);
  const line = (e: unknown) => JSON.stringify(e) + "\n";
  const base = jsonl(H, user("u1", null, long));
  yield {
    name: "long strings, kept and cut",
    bytes: enc(base + jsonl(
      label("l1", "u1", "u1", "L".repeat(6000)),
      sessionInfo("s1", "l1", "N".repeat(6000)),
      message("m1", "s1", { role: "assistant", content: [{ type: "text", text: long }, { type: "toolCall", id: "t", name: "x".repeat(5000), arguments: { big: long } }], provider: "p".repeat(3000), model: "m", usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, note: long, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } }),
      compaction("c1", "m1", { summary: long, tokensBefore: "\u0001".repeat(3000), retainedTail: long, firstKeptEntryId: "u1" }),
      user("u2", "c1", "\u0001".repeat(3000)),
      message("u3", "u2", { role: "user", content: "\ud83d\ude80".repeat(2000) }),
    )),
  };
  const blank = " ".repeat(3000);
  const call = (id: string, name: string, args: unknown) => ({ type: "toolCall", id, name, arguments: args });
  yield {
    name: "long previews",
    bytes: enc(base + jsonl(
      message("m1", "u1", { role: "assistant", content: [{ type: "text", text: blank }, { type: "text", text: blank + "late text" }, call("c1", "bash", { command: blank + "npm test " + long }), call("c2", "mcp__x", { q: long, deep: [{ a: long }] }), call("c3", "read", { path: "p".repeat(3000), offset: 5, limit: 9 }), call("c4", "bash", { command: "a" + "\n\u0001 ".repeat(2000) + "b".repeat(3000) })] }),
      message("r4", "m1", { role: "toolResult", toolCallId: "c4", toolName: "bash", content: "" }),
      message("r1", "m1", { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: long }] }),
      message("r2", "r1", { role: "toolResult", toolCallId: "c2", toolName: "mcp__x", content: long }),
      message("r3", "r2", { role: "toolResult", toolCallId: "c3", toolName: "read", content: long }),
      message("a2", "r3", { role: "assistant", content: [{ type: "text", text: blank }], stopReason: "error", errorMessage: blank + long }),
      message("a3", "a2", { role: "assistant", content: "\u00a0".repeat(3000) + "x" }),
      message("b1", "a3", { role: "bashExecution", command: blank + long, output: long }),
      entry("branch_summary", "s1", "b1", { fromId: "u1", summary: blank + long }),
      entry("custom_message", "x1", "s1", { customType: "ext", content: [{ type: "text", text: long }], display: true }),
      entry("usage", "g1", "x1", { kind: long, provider: "p", model: "m" }),
      user("u9", "g1", "\u2028".repeat(2000) + "tail"),
      message("a9", "u9", { role: "assistant", content: [{ type: "text", text: " " }], errorMessage: "e" + "\u0000\u0085".repeat(3000) + "f".repeat(3000) }),
    )),
  };
  const bad = (middle: Uint8Array) => {
    const [head, tail] = line(user("x1", "u1", "A".repeat(3000) + "@@" + "B".repeat(3000))).split("@@");
    const out = new Uint8Array([...enc(base + head), ...middle, ...enc(tail)]);
    return out;
  };
  yield { name: "invalid UTF-8 inside a long string", bytes: bad(new Uint8Array([0xff, 0xc3])) };
  yield { name: "a raw control byte inside a long string", bytes: bad(new Uint8Array([0x09, 0x01])) };
  yield { name: "a bad escape inside a long string", bytes: bad(enc("\\x")) };
  yield { name: "a bad \\u escape inside a long string", bytes: bad(enc("\\u12G4")) };
  yield { name: "a long string torn at the end of the file", bytes: enc(base + line(user("x1", "u1", "C".repeat(9000))).slice(0, 6000)) };
  yield { name: "malformed JSON after a long string", bytes: enc(base + line(user("x1", "u1", "D".repeat(9000))).replace(/}\n$/, ",}\n") + line(assistant("a9", "x1", "ok"))) };
}

/** What `info` derives from the entries. */
function infoFacts(file: SessionFile) {
  const tree = new SessionTree(file.entries);
  const types: Record<string, number> = {};
  const roles: Record<string, number> = {};
  const models: string[] = [];
  let toolCalls = 0;
  for (const e of file.entries) {
    types[String(e.type)] = (types[String(e.type)] ?? 0) + 1;
    if (e.type !== "message") continue;
    const m = (e as MessageEntry).message;
    if (!m || typeof m !== "object") continue;
    roles[String(m.role)] = (roles[String(m.role)] ?? 0) + 1;
    if (m.role === "assistant") {
      const key = `${m.provider}/${m.responseModel ?? m.model}`;
      if (!models.includes(key)) models.push(key);
      if (Array.isArray(m.content)) toolCalls += (m.content as ToolCall[]).filter((b) => b?.type === "toolCall").length;
    }
  }
  const listing = listingOfEntries(file.entries);
  const { totals, byKey } = sessionUsage(file.entries);
  return {
    types, roles, models, toolCalls, totals, byKey: [...byKey],
    lastActivity: listing.lastActivity, messageCount: listing.messageCount, name: listing.name,
    leafId: tree.leafId, leaves: tree.leaves().map((e) => e.id), labels: [...tree.labels], sessionName: tree.sessionName,
    issues: file.issues, treeIssues: tree.findIssues(file.entryLines), version: file.version, migrated: file.migrated,
  };
}

test("skimLine() cuts long values only, keeping kept keys and enough of each string", () => {
  const text = "x".repeat(5000);
  const bytes = new TextEncoder().encode(JSON.stringify({ id: "a", label: text, text, usage: { note: text } }));
  const skimmed = JSON.parse(new TextDecoder().decode(skimLine(bytes, new Set(["label"]), 41)));
  assert.deepEqual(skimmed, { id: "a", label: text, text: "x".repeat(252), usage: { note: text } });
  assert.equal(skimLine(new TextEncoder().encode('{"id":"a","text":"short"}'), new Set(), 41), undefined);
});

test("checkSession() reports the same problems from lean entries as from full ones", SLOW, () => {
  let count = 0;
  for (const c of cases()) {
    assert.deepEqual(checkSession(read(c.bytes, LEAN_READ)), checkSession(read(c.bytes)), c.name);
    count++;
  }
  assert.ok(count > 20);
});

test("leanEntry() keeps what info counts: types, roles, models, tool calls, usage, dates, tree, labels, name", SLOW, () => {
  for (const c of cases()) assert.deepEqual(infoFacts(read(c.bytes, LEAN_READ)), infoFacts(read(c.bytes)), c.name);
});

test("previewEntry() gives the tree the rows of full entries, in every filter", SLOW, () => {
  for (const c of cases()) {
    const full = new SessionTree(read(c.bytes).entries);
    const preview = new SessionTree(read(c.bytes, PREVIEW_READ).entries);
    for (const filter of TREE_FILTERS) {
      assert.deepEqual(treeRows(preview, { filter, home: "/home/dev" }), treeRows(full, { filter, home: "/home/dev" }), `${c.name} (${filter})`);
    }
  }
});

test("SessionReader runs keep while a current file is read, and on migrated entries of an older one", () => {
  const seen: unknown[] = [];
  const keep = (e: Record<string, unknown>) => {
    seen.push(e.id);
    return leanEntry(e);
  };
  const v3 = new SessionReader({ keep });
  v3.push(new TextEncoder().encode(jsonl(header("v3"), user("u1", null, "hi"), assistant("a1", "u1", "yo"))));
  assert.deepEqual(seen, ["u1", "a1"]); // before end()
  assert.equal((v3.end().entries[0] as MessageEntry).message.content, "hi");

  seen.length = 0;
  const v1 = new SessionReader({ keep });
  v1.push(new TextEncoder().encode(jsonl({ type: "session", id: "old", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/" },
    { type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: { role: "user", content: "hi" } })));
  assert.deepEqual(seen, []);
  const file = v1.end();
  assert.equal(seen.length, 1);
  assert.equal(typeof seen[0], "string"); // the id migration gave it
  assert.equal(file.entries[0].id, seen[0]);
});

test("leanEntry() drops texts and tool output but keeps tool calls, usage and references", () => {
  const lean = leanEntry({
    type: "message", id: "a", parentId: "p", timestamp: "t",
    message: { role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: "z".repeat(10_000) }], details: { big: "x" }, isError: false },
  });
  assert.deepEqual(lean, {
    type: "message", id: "a", parentId: "p", timestamp: "t",
    message: { role: "toolResult", toolCallId: "c", toolName: "read", content: [], isError: false },
  });
});
