/**
 * Lean entries (what `info` and `check` hold of a session) give the same answers as full ones:
 * a differential over the hostile corpus and the example sessions, old path (full entries) vs
 * new (`keep: leanEntry`).
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkSession } from "../../../src/core/check/check-entries.ts";
import type { MessageEntry, ToolCall } from "../../../src/core/format/types.ts";
import { listingOfEntries } from "../../../src/core/info/session-info.ts";
import { sessionUsage } from "../../../src/core/info/usage-totals.ts";
import { leanEntry } from "../../../src/core/read/lean-entry.ts";
import { type SessionFile, SessionReader } from "../../../src/core/read/read-session.ts";
import { SessionTree } from "../../../src/core/tree/session-tree.ts";
import { hostileCorpus } from "../_hostile-corpus.ts";
import { assistant, compaction, entry, header, jsonl, label, message, sessionInfo, user } from "../_builders.ts";

const SLOW = { timeout: 120_000 };
const EXAMPLES = fileURLToPath(new URL("../../../examples", import.meta.url));

function read(bytes: Uint8Array, keep?: typeof leanEntry): SessionFile {
  const reader = new SessionReader({ keep });
  // In pieces, as a file is read, so `keep` runs while lines arrive.
  for (let i = 0; i < bytes.length; i += 65_536) reader.push(bytes.subarray(i, i + 65_536));
  return reader.end();
}

function* cases(): Generator<{ name: string; bytes: Uint8Array }> {
  for (const c of hostileCorpus()) yield { name: c.name, bytes: c.bytes };
  for (const dir of ["agent", "broken"]) {
    const root = join(EXAMPLES, dir);
    for (const name of readdirSync(root, { recursive: true, encoding: "utf8" })) {
      if (name.endsWith(".jsonl")) yield { name: `${dir}/${name}`, bytes: readFileSync(join(root, name)) };
    }
  }
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

test("checkSession() reports the same problems from lean entries as from full ones", SLOW, () => {
  let count = 0;
  for (const c of cases()) {
    assert.deepEqual(checkSession(read(c.bytes, leanEntry)), checkSession(read(c.bytes)), c.name);
    count++;
  }
  assert.ok(count > 20);
});

test("leanEntry() keeps what info counts: types, roles, models, tool calls, usage, dates, tree, labels, name", SLOW, () => {
  for (const c of cases()) assert.deepEqual(infoFacts(read(c.bytes, leanEntry)), infoFacts(read(c.bytes)), c.name);
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
