/**
 * What each append writes: byte-exact lines (pi 1.6 key order) under a pinned clock and ids,
 * and the rules of labels, names, compactions, context edits and usage entries.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CompactionEntry, ContextEditEntry, LabelEntry, SessionHeader } from "../../src/core/format/types.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { InvalidContextEditError, InvalidSessionIdError, UnknownEntryError } from "../../src/session/errors.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { assistant, at, pinned, readText, system, usage, user } from "./_fixtures.ts";

const FILE = "/sessions/2024-01-01T00-00-01-000Z_s1.jsonl";
const U = JSON.stringify(usage);

function persisted() {
  const fs = new MemoryFileSystem();
  return { fs, session: SessionManager.create("/work", "/sessions", pinned(fs)) };
}

describe("SessionManager entries", () => {
  it("writes every entry type with pi 1.6's key order, byte for byte", async () => {
    const { fs, session } = persisted();
    await session.appendThinkingLevelChange("high");
    await session.appendModelChange("anthropic", "claude");
    await session.appendMessage(user("hi"));
    await session.appendUsage("cache_warm", "anthropic", "claude", usage, "warm-up");
    await session.appendCustomEntry("ext", { a: 1 });
    await session.appendCustomMessageEntry("ext", "shown", true, { d: 1 });
    await session.appendSessionInfo("name");
    await session.appendLabelChange("e0000003", "mark");
    await session.appendLabelChange("e0000003", undefined);
    await session.appendContextEdit("e0000003", { content: "edited" });
    await session.appendCompaction("sum", "e0000003", 100, { readFiles: [] }, false, usage);
    await session.branchWithSummary("e0000003", "left", { x: 1 }, true, usage);
    const expected = [
      `{"type":"session","version":3,"id":"s1","timestamp":"${at(1)}","cwd":"/work"}`,
      `{"type":"thinking_level_change","id":"e0000001","parentId":null,"timestamp":"${at(2)}","thinkingLevel":"high"}`,
      `{"type":"model_change","id":"e0000002","parentId":"e0000001","timestamp":"${at(3)}","provider":"anthropic","modelId":"claude"}`,
      `{"type":"message","id":"e0000003","parentId":"e0000002","timestamp":"${at(4)}","message":{"role":"user","content":"hi","timestamp":1}}`,
      `{"type":"usage","id":"e0000004","parentId":"e0000003","timestamp":"${at(5)}","kind":"cache_warm","provider":"anthropic","model":"claude","usage":${U},"note":"warm-up"}`,
      `{"type":"custom","customType":"ext","data":{"a":1},"id":"e0000005","parentId":"e0000004","timestamp":"${at(6)}"}`,
      `{"type":"custom_message","customType":"ext","content":"shown","display":true,"details":{"d":1},"id":"e0000006","parentId":"e0000005","timestamp":"${at(7)}"}`,
      `{"type":"session_info","id":"e0000007","parentId":"e0000006","timestamp":"${at(8)}","name":"name"}`,
      `{"type":"label","id":"e0000008","parentId":"e0000007","timestamp":"${at(9)}","targetId":"e0000003","label":"mark"}`,
      `{"type":"label","id":"e0000009","parentId":"e0000008","timestamp":"${at(10)}","targetId":"e0000003"}`,
      `{"type":"context_edit","id":"e0000010","parentId":"e0000009","timestamp":"${at(11)}","targetId":"e0000003","replacement":{"content":"edited"}}`,
      `{"type":"compaction","id":"e0000011","parentId":"e0000010","timestamp":"${at(12)}","summary":"sum","firstKeptEntryId":"e0000003","tokensBefore":100,"details":{"readFiles":[]},"usage":${U},"fromHook":false}`,
      `{"type":"branch_summary","id":"e0000012","parentId":"e0000003","timestamp":"${at(13)}","fromId":"e0000011","summary":"left","details":{"x":1},"usage":${U},"fromHook":true}`,
    ];
    assert.equal(await readText(fs, FILE), expected.join("\n") + "\n");
    assert.deepEqual(session.getEntries().map((e) => JSON.stringify(e)), expected.slice(1), "memory holds what the file holds");
  });

  it("newSession() checks caller ids and records parentSession", () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    assert.throws(() => session.newSession({ id: "-bad" }), InvalidSessionIdError);
    assert.throws(() => session.newSession({ id: "" }), { message: /^Session id must be non-empty/ });
    assert.equal(session.newSession({ id: "a.b_c-1", parentSession: "/p.jsonl" }), undefined);
    const header: SessionHeader = session.getHeader();
    assert.deepEqual(Object.keys(header), ["type", "version", "id", "timestamp", "cwd", "parentSession"]);
    assert.equal(session.getSessionId(), "a.b_c-1");
    assert.equal(header.parentSession, "/p.jsonl");
  });

  it("labels: the latest per target wins, undefined or empty clears, unknown targets throw", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    const a = await session.appendMessage(user("a"));
    const b = await session.appendMessage(assistant("b"));
    await assert.rejects(session.appendLabelChange("nope", "x"), (error: Error) => {
      assert.ok(error instanceof UnknownEntryError);
      assert.equal(error.message, "Entry nope not found");
      return true;
    });
    const label = await session.appendLabelChange(a, "one");
    assert.equal(session.getLeafId(), label, "a label entry becomes the leaf");
    await session.appendLabelChange(a, "two");
    await session.appendLabelChange(b, "bee");
    assert.equal(session.getLabel(a), "two");
    const node = session.getTree()[0];
    assert.equal(node.label, "two");
    assert.equal(node.labelTimestamp, at(5), "a refused label took no time or id");
    await session.appendLabelChange(a, "");
    assert.equal(session.getLabel(a), undefined);
    assert.equal((session.getEntries().at(-1) as LabelEntry).label, "", '"" is kept, as pi keeps it');
    await session.appendLabelChange(b, undefined);
    assert.equal(session.getLabel(b), undefined);
    assert.equal("label" in session.getEntries().at(-1)!, false, "a cleared label has no label key");
    assert.deepEqual(session.buildSessionContext().messages.map((m) => m.role), ["user", "assistant"], "labels stay out of the context");
  });

  it("session names: CR/LF runs become a space, trimmed; the latest wins even when empty", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    assert.equal(session.getSessionName(), undefined);
    await session.appendSessionInfo("  fix\r\n\nthe   bug \n");
    assert.equal(session.getSessionName(), "fix the   bug");
    session.resetLeaf();
    await session.appendSessionInfo("other branch");
    assert.equal(session.getSessionName(), "other branch", "names are not branch-aware");
    await session.appendSessionInfo(" \n ");
    assert.equal(session.getSessionName(), undefined);
    assert.equal((session.getEntries().at(-1) as { name: string }).name, "");
  });

  it("appendCompaction() with no firstKeptEntryId keeps nothing before it", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    await session.appendMessage(user("a"));
    await session.appendMessage(assistant("b"));
    const id = await session.appendCompaction("summary", null, 50);
    assert.equal((session.getEntry(id) as CompactionEntry).firstKeptEntryId, id);
    await session.appendMessage(user("c"));
    assert.deepEqual(session.buildSessionContext().messages.map((m) => m.role), ["compactionSummary", "user"]);
    const other = await session.appendCompaction("again", undefined, 60);
    assert.equal((session.getEntry(other) as CompactionEntry).firstKeptEntryId, other);
  });

  it("appendCompaction() replays the context's system messages unless told otherwise", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    await session.appendMessage(system("base", 5));
    await session.appendMessage({ role: "system", content: [{ type: "text", text: "more" }], sections: { s: "x" }, timestamp: 6 });
    const kept = await session.appendMessage(user("a"));
    const id = await session.appendCompaction("sum", kept, 10);
    const entry = session.getEntry(id) as CompactionEntry;
    assert.deepEqual(entry.systemMessage, { role: "system", content: "base\n\nmore", sections: { s: "x" }, timestamp: Date.parse(at(5)) });
    assert.deepEqual(Object.keys(entry).slice(-1), ["systemMessage"]);
    assert.deepEqual(session.buildSessionContext().messages.map((m) => m.role), ["system", "compactionSummary", "user"]);
    const none = await session.appendCompaction("sum", null, 10, undefined, undefined, undefined, { systemMessage: null });
    assert.equal("systemMessage" in session.getEntry(none)!, false);
  });

  it("appendCompaction() stores a retainedTail last, and the context uses it", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    await session.appendMessage(user("old"));
    const tail = [user("kept", 7)];
    const id = await session.appendCompaction("sum", null, 10, undefined, undefined, undefined, { retainedTail: tail, systemMessage: null });
    assert.deepEqual(Object.keys(session.getEntry(id)!).slice(-1), ["retainedTail"]);
    assert.deepEqual(session.buildSessionContext().messages.slice(1), tail);
  });

  it("appendContextEdit() follows pi's validation and normalises assistant strings", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    const model = await session.appendModelChange("p", "m");
    const u = await session.appendMessage(user("question"));
    const a = await session.appendMessage(assistant("answer"));
    await assert.rejects(session.appendContextEdit(u, { nope: 1 } as never), /must be null or contain string\/array content/);
    await assert.rejects(session.appendContextEdit("zz", null), UnknownEntryError);
    await assert.rejects(session.appendContextEdit(model, null), (e: Error) => e instanceof InvalidContextEditError && e.message === `Entry ${model} does not contribute editable model content`);
    const edit = await session.appendContextEdit(a, { content: "short" });
    assert.deepEqual((session.getEntry(edit) as ContextEditEntry).replacement, { content: [{ type: "text", text: "short" }] });
    await session.appendContextEdit(u, null);
    const messages = session.buildSessionContext().messages;
    assert.deepEqual(messages.map((m) => m.role), ["assistant"]);
    assert.deepEqual(messages[0].content, [{ type: "text", text: "short" }]);
    session.branch(model);
    await assert.rejects(session.appendContextEdit(a, null), new RegExp(`Entry ${a} is not on the active branch`));
  });

  it("appendUsage() returns the entry and leaves out an empty note", async () => {
    const session = SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
    const entry = await session.appendUsage("k", "p", "m", usage, "");
    assert.deepEqual(Object.keys(entry), ["type", "id", "parentId", "timestamp", "kind", "provider", "model", "usage"]);
    assert.equal(session.getLeafEntry(), entry);
  });

  it("entry ids retry on collision, then fall back to a full UUID", async () => {
    const session = SessionManager.inMemory("/work", { ...pinned(new MemoryFileSystem()), newId: () => "same0000" });
    assert.equal(await session.appendMessage(user("a")), "same0000");
    const second = await session.appendMessage(user("b"));
    assert.match(second, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("default ids: 8 hex entry ids and UUIDv7 session ids at the clock's time", async () => {
    const session = SessionManager.inMemory("/work", { clock: () => new Date("2024-01-01T00:00:00Z") });
    assert.match(session.getSessionId(), /^018cc251-f400-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(await session.appendMessage(user("a")), /^[0-9a-f]{8}$/);
    const next = SessionManager.inMemory("/work", { clock: () => new Date("2024-01-01T00:00:00Z") }).getSessionId();
    assert.ok(next > session.getSessionId(), "ids made in the same millisecond still sort in order");
  });
});
