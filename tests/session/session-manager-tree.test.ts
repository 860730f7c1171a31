/**
 * Navigating and copying sessions: branch, resetLeaf, branchWithSummary, getTree and
 * getChildren; createBranchedSession and forkFrom; the factories that find and list files.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CompactionEntry, LabelEntry, SessionEntry } from "../../src/core/format/types.ts";
import { readSession } from "../../src/core/read/read-session.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { InvalidForkSourceError, InvalidSessionIdError, UnknownEntryError } from "../../src/session/errors.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { assistant, at, bytes, pinned, readLines, readText, storage, user } from "./_fixtures.ts";

function memory() {
  return SessionManager.inMemory("/work", pinned(new MemoryFileSystem()));
}

function shape(nodes: { entry: SessionEntry; children: unknown[] }[]): unknown[] {
  return nodes.map((n) => [n.entry.id, shape(n.children as never)]);
}

describe("SessionManager tree", () => {
  it("branch() moves the leaf so the next entry starts a sibling; unknown ids throw", async () => {
    const session = memory();
    const u1 = await session.appendMessage(user("one"));
    const a1 = await session.appendMessage(assistant("two"));
    assert.throws(() => session.branch("nope"), (e: Error) => e instanceof UnknownEntryError && e.message === "Entry nope not found");
    session.branch(u1);
    assert.equal(session.getLeafId(), u1);
    const a2 = await session.appendMessage(assistant("three"));
    assert.equal(session.getEntry(a2)?.parentId, u1);
    assert.deepEqual(session.getChildren(u1).map((e) => e.id), [a1, a2]);
    assert.deepEqual(shape(session.getTree()), [[u1, [[a1, []], [a2, []]]]]);
    assert.deepEqual(session.getBranch(a1).map((e) => e.id), [u1, a1]);
    assert.deepEqual(session.getBranch("nope"), []);
    assert.deepEqual(session.buildSessionContext().messages.map((m) => m.content), ["one", [{ type: "text", text: "three" }]]);
  });

  it("resetLeaf() makes the next entry a new root", async () => {
    const session = memory();
    const u1 = await session.appendMessage(user("one"));
    session.resetLeaf();
    assert.equal(session.getLeafId(), null);
    assert.equal(session.getLeafEntry(), undefined);
    assert.deepEqual(session.buildSessionContext().messages, []);
    const u2 = await session.appendMessage(user("again"));
    assert.equal(session.getEntry(u2)?.parentId, null);
    assert.deepEqual(shape(session.getTree()), [[u1, []], [u2, []]]);
  });

  it("branchWithSummary() hangs a summary under the target; fromId is the old leaf or root", async () => {
    const session = memory();
    const u1 = await session.appendMessage(user("one"));
    const a1 = await session.appendMessage(assistant("two"));
    const s1 = await session.branchWithSummary(u1, "tried something");
    assert.deepEqual(session.getEntry(s1), {
      type: "branch_summary", id: s1, parentId: u1, timestamp: at(4), fromId: a1, summary: "tried something",
    });
    assert.equal(session.getLeafId(), s1);
    assert.deepEqual(session.buildSessionContext().messages.map((m) => m.role), ["user", "branchSummary"]);
    const s2 = await session.branchWithSummary(null, "from scratch");
    assert.equal(session.getEntry(s2)?.parentId, null);
    session.resetLeaf();
    const s3 = await session.branchWithSummary(null, "empty");
    assert.equal((session.getEntry(s3) as { fromId: string }).fromId, "root");
    await assert.rejects(session.branchWithSummary("nope", "x"), UnknownEntryError);
  });

  it("createBranchedSession() copies the path without labels, re-chained, labels re-appended", async () => {
    const fs = new MemoryFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    const u1 = await session.appendMessage(user("one"));
    const a1 = await session.appendMessage(assistant("two"));
    const l1 = await session.appendLabelChange(u1, "start");
    const u2 = await session.appendMessage(user("three"));
    await session.appendLabelChange(a1, "answer");
    const a2 = await session.appendMessage(assistant("four"));
    session.branch(a1);
    const off = await session.appendMessage(user("off path"));
    await session.appendLabelChange(off, "elsewhere");
    const source = session.getSessionFile()!;
    const context = (() => {
      session.branch(a2);
      return session.buildSessionContext();
    })();
    const file = await session.createBranchedSession(a2);
    assert.notEqual(file, source);
    assert.equal(session.getSessionFile(), file);
    assert.equal(session.getHeader().parentSession, source);
    const entries = session.getEntries();
    assert.deepEqual(entries.slice(0, 4).map((e) => [e.id, e.parentId]), [[u1, null], [a1, u1], [u2, a1], [a2, u2]]);
    const labels = entries.slice(4) as LabelEntry[];
    assert.deepEqual(labels.map((l) => [l.targetId, l.label, l.timestamp]), [[u1, "start", at(4)], [a1, "answer", at(6)]]);
    assert.equal(labels[0].parentId, a2);
    assert.equal(labels[1].parentId, labels[0].id);
    assert.ok(!entries.some((e) => e.id === l1), "label entries get fresh ids");
    assert.equal(session.getLeafId(), labels[1].id);
    assert.equal(session.getLabel(u1), "start");
    assert.deepEqual(session.buildSessionContext(), context);
    const written = await readSession(fs.read(file!));
    assert.deepEqual(written.entries, entries, "written at once: the path holds a conversation");
    assert.deepEqual(written.issues, []);
  });

  it("createBranchedSession() re-points a compaction's firstKeptEntryId from a dropped label", async () => {
    const session = memory();
    const u1 = await session.appendMessage(user("one"));
    await session.appendMessage(assistant("two"));
    const label = await session.appendLabelChange(u1, "mark");
    const u2 = await session.appendMessage(user("three"));
    const c = await session.appendCompaction("sum", label, 10);
    const before = session.buildSessionContext();
    assert.equal(await session.createBranchedSession(c), undefined, "in memory: nothing returned");
    assert.equal((session.getEntry(c) as CompactionEntry).firstKeptEntryId, u2);
    assert.equal(session.getEntry(u2)?.parentId, session.getEntries()[1].id);
    assert.deepEqual(session.buildSessionContext(), before);
    assert.equal(session.getHeader().parentSession, undefined);
    assert.equal(session.getSessionFile(), undefined);
  });

  it("createBranchedSession() without a conversation writes nothing until one starts", async () => {
    const fs = new MemoryFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    await session.appendModelChange("p", "m");
    const t = await session.appendThinkingLevelChange("low");
    const file = (await session.createBranchedSession(t))!;
    assert.equal(await readText(fs, file), null);
    await session.appendMessage(user("now"));
    assert.deepEqual((await readLines(fs, file)).map((l) => l.type), ["session", "model_change", "thinking_level_change", "message"]);
    await assert.rejects(session.createBranchedSession("nope"), UnknownEntryError);
  });

  it("forkFrom() of a v1 file writes a valid v3 copy with every entry", async () => {
    const fs = new MemoryFileSystem();
    await fs.mkdir("/old");
    const v1 = [
      { type: "session", id: "old", timestamp: "2023-01-01T00:00:00.000Z", cwd: "/proj" },
      { type: "message", timestamp: "2023-01-01T00:00:01.000Z", message: user("one") },
      { type: "message", timestamp: "2023-01-01T00:00:02.000Z", message: { role: "hookMessage", customType: "x", content: "h", display: true, timestamp: 3 } },
      { type: "compaction", timestamp: "2023-01-01T00:00:03.000Z", summary: "s", firstKeptEntryIndex: 1, tokensBefore: 9 },
    ].map((o) => JSON.stringify(o) + "\n").join("");
    await fs.append("/old/s.jsonl", bytes(v1));
    const fork = await SessionManager.forkFrom("/old/s.jsonl", "/target", "/sessions", pinned(fs));
    assert.equal(await readText(fs, "/old/s.jsonl"), v1, "the source is not touched");
    const file = await readSession(fs.read(fork.getSessionFile()!));
    assert.deepEqual(file.issues, []);
    assert.equal(file.version, 3);
    assert.deepEqual(file.header, { type: "session", version: 3, id: "s1", timestamp: at(1), cwd: "/target", parentSession: "/old/s.jsonl" });
    assert.equal(file.entries.length, 3);
    assert.ok(file.entries.every((e, i) => /^[0-9a-f]{8}$/.test(e.id) && e.parentId === (i === 0 ? null : file.entries[i - 1].id)));
    assert.equal((file.entries[1] as { message: { role: string } }).message.role, "custom");
    assert.deepEqual(fork.getEntries(), file.entries);
    assert.equal(fork.getCwd(), "/target");
    await fork.appendMessage(assistant("more"));
    assert.equal((await readLines(fs, fork.getSessionFile()!)).length, 5);
  });

  it("forkFrom() refuses missing, empty and foreign sources, and bad ids", async () => {
    const fs = new MemoryFileSystem();
    await fs.mkdir("/old");
    await fs.append("/old/empty.jsonl", new Uint8Array());
    await fs.append("/old/junk.jsonl", bytes("junk\n"));
    for (const path of ["/old/missing.jsonl", "/old/empty.jsonl", "/old/junk.jsonl"]) {
      await assert.rejects(SessionManager.forkFrom(path, "/t", "/sessions", pinned(fs)), (e: Error) =>
        e instanceof InvalidForkSourceError && e.message.startsWith(`Cannot fork: source session file is empty or invalid: ${path}`));
    }
    await fs.append("/old/ok.jsonl", bytes('{"type":"session","version":3,"id":"o","timestamp":"t","cwd":"/w"}\n'));
    await assert.rejects(SessionManager.forkFrom("/old/ok.jsonl", "/t", "/sessions", { ...pinned(fs), id: "bad id" }), InvalidSessionIdError);
    const fork = await SessionManager.forkFrom("/old/ok.jsonl", "/t", "/sessions", { ...pinned(fs), id: "chosen" });
    assert.equal(fork.getSessionId(), "chosen");
    assert.ok(fork.getSessionFile()!.endsWith("_chosen.jsonl"));
  });

  it("continueRecent() opens the newest file (custom dirs: of this cwd) with the caller's cwd, else creates", async () => {
    let now = 1000;
    const fs = new MemoryFileSystem({ clock: () => now });
    const first = SessionManager.create("/work", undefined, pinned(fs));
    await first.appendMessage(user("old"));
    now = 2000;
    const second = SessionManager.create("/work", undefined, pinned(fs, { newSessionId: () => "s2" }));
    await second.appendMessage(user("new"));
    now = 3000;
    await fs.append(second.getSessionDir() + "/zz-junk.jsonl", bytes("junk\n"));
    assert.equal(first.getSessionDir(), "/agent/sessions/--work--");
    const recent = await SessionManager.continueRecent("/work", undefined, pinned(fs));
    assert.equal(recent.getSessionFile(), second.getSessionFile());
    const fresh = await SessionManager.continueRecent("/elsewhere", undefined, pinned(fs));
    assert.equal(fresh.getEntries().length, 0);

    const custom = SessionManager.create("/a", "/flat", pinned(fs));
    await custom.appendMessage(user("a"));
    now = 4000;
    const b = SessionManager.create("/b", "/flat", pinned(fs, { newSessionId: () => "sb" }));
    await b.appendMessage(user("b"));
    const forA = await SessionManager.continueRecent("/a", "/flat", pinned(fs));
    assert.equal(forA.getSessionFile(), custom.getSessionFile());
    const none = await SessionManager.continueRecent("/c", "/flat", pinned(fs, { newSessionId: () => "new" }));
    assert.deepEqual([none.getEntries().length, none.getSessionId(), none.getCwd()], [0, "new", "/c"]);

    now = 5000;
    const foreign = '{"type":"session","version":3,"id":"f","timestamp":"t","cwd":"/zzz"}\n';
    await fs.append("/agent/sessions/--work--/foreign.jsonl", bytes(foreign));
    const unfiltered = await SessionManager.continueRecent("/work", "/agent/sessions/--work--", pinned(fs));
    assert.equal(unfiltered.getSessionId(), "f", "the cwd's own default dir, named explicitly, is not filtered");
    assert.equal(unfiltered.getCwd(), "/work", "opened with the caller's cwd");
  });

  it("list() and listAll() see written sessions only", async () => {
    const fs = new MemoryFileSystem();
    const one = SessionManager.create("/work", undefined, pinned(fs));
    await one.appendMessage(user("hello"));
    await one.appendSessionInfo("named");
    SessionManager.create("/work", undefined, pinned(fs, { newSessionId: () => "unwritten" }));
    const other = SessionManager.create("/other", undefined, pinned(fs, { newSessionId: () => "o" }));
    await other.appendMessage(user("x"));
    const listed = await SessionManager.list("/work", undefined, pinned(fs));
    assert.deepEqual(listed.map((s) => [s.id, s.name, s.firstMessage, s.path]), [["s1", "named", "hello", one.getSessionFile()]]);
    const all = await SessionManager.listAll(pinned(fs));
    assert.deepEqual(all.map((s) => s.id).sort(), ["o", "s1"]);
  });

  it("inMemory() preloads entries, with or without a header, and never writes", async () => {
    const fs = new MemoryFileSystem();
    const header = { type: "session" as const, id: "pre", timestamp: at(0), cwd: "/p" };
    const entries = [{ type: "message", timestamp: at(1), message: user("a") }] as never[];
    const legacy = SessionManager.inMemory("/work", pinned(fs), [header, ...entries]);
    assert.equal(legacy.getSessionId(), "pre");
    assert.equal(legacy.getHeader().version, 3, "migrated like a file");
    assert.match(legacy.getLeafId()!, /^[0-9a-f]{8}$/);
    const bare = [{ type: "custom", customType: "x", id: "c1", parentId: null, timestamp: at(1) }] as SessionEntry[];
    const noHeader = SessionManager.inMemory(undefined, pinned(fs), bare);
    assert.equal(noHeader.getCwd(), storage.processCwd);
    assert.equal(noHeader.getSessionId(), "s1");
    assert.equal(noHeader.getLeafId(), "c1");
    await noHeader.appendMessage(user("b"));
    assert.equal(noHeader.isPersisted(), false);
    assert.deepEqual(await fs.list("/"), []);
  });

  it("setSessionFile() switches to another file, keeping cwd and dir", async () => {
    const fs = new MemoryFileSystem();
    const a = SessionManager.create("/work", "/sessions", pinned(fs));
    await a.appendMessage(user("a"));
    const b = SessionManager.create("/work", "/sessions", pinned(fs, { newSessionId: () => "sb" }));
    await b.setSessionFile(a.getSessionFile()!);
    assert.equal(b.getSessionId(), "s1");
    assert.deepEqual(b.getEntries(), a.getEntries());
    await b.appendMessage(assistant("b"));
    assert.equal((await readLines(fs, a.getSessionFile()!)).length, 3);
  });
});
