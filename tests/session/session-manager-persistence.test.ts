/**
 * How SessionManager reaches the disk: the lazy first write, one-line appends, torn tails,
 * exclusive creation, rollback on failed writes, and opening without writing (migration,
 * empty, missing and foreign files). Memory file system, plus the node adapter for modes.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readSession } from "../../src/core/read/read-session.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { NotASessionError, SessionWriteConflictError } from "../../src/session/errors.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { assistant, bytes, FlakyFileSystem, pinned, readLines, readText, user } from "./_fixtures.ts";

const FILE = "/sessions/2024-01-01T00-00-01-000Z_s1.jsonl";

describe("SessionManager persistence", () => {
  it("create() writes nothing until a user message, then the whole buffer in one exclusive create", async () => {
    const fs = new FlakyFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    assert.equal(session.getSessionFile(), FILE);
    await session.appendModelChange("anthropic", "claude");
    await session.appendThinkingLevelChange("high");
    assert.equal(await readText(fs, FILE), null);
    assert.equal(fs.appends.length, 0);
    assert.equal(fs.atomicWrites.length, 0);
    await session.appendMessage(user("hi"));
    assert.equal(fs.sessionAppends().length, 0);
    // Whole or not at all: a kill or a full disk during the write leaves no partial session.
    assert.deepEqual(fs.atomicWrites, [FILE]);
    assert.deepEqual(fs.atomicOptions[0], { exclusive: true, mode: 0o600 });
    const lines = await readLines(fs, FILE);
    assert.deepEqual(lines.map((l) => l.type), ["session", "model_change", "thinking_level_change", "message"]);
    assert.equal(await fs.stat(`${FILE}.lock`), null);
  });

  it("an assistant message alone also starts the file; a system message does not", async () => {
    const fs = new MemoryFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    await session.appendMessage({ role: "system", content: "prompt", timestamp: 0 });
    assert.equal(await readText(fs, FILE), null);
    await session.appendMessage(assistant("hello"));
    assert.equal((await readLines(fs, FILE)).length, 3);
  });

  it("each later entry is one append of one line", async () => {
    const fs = new FlakyFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    await session.appendMessage(user("hi"));
    const before = (await readText(fs, FILE))!;
    const id = await session.appendMessage(assistant("hello"));
    const writes = fs.sessionAppends();
    assert.equal(writes.length, 1);
    assert.equal(writes[0].data, JSON.stringify(session.getEntry(id)) + "\n");
    assert.equal(await readText(fs, FILE), before + writes[0].data);
  });

  it("an append first ends a torn last line with a newline", async () => {
    const fs = new MemoryFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    await session.appendMessage(user("hi"));
    await fs.append(FILE, bytes('{"type":"message","id":"torn'));
    const id = await session.appendMessage(assistant("hello"));
    const text = (await readText(fs, FILE))!;
    assert.ok(text.endsWith(`{"type":"message","id":"torn\n${JSON.stringify(session.getEntry(id))}\n`));
    const file = await readSession(fs.read(FILE));
    assert.deepEqual(file.entries.map((e) => e.id), [session.getEntries()[0].id, id]);
    assert.deepEqual(file.issues.map((i) => i.code), ["malformed-json"]);
  });

  it("open() of a file without a final newline appends on a fresh line", async () => {
    const fs = new MemoryFileSystem();
    const header = '{"type":"session","version":3,"id":"x","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work"}';
    await fs.mkdir("/sessions");
    await fs.append("/sessions/x.jsonl", bytes(header));
    const session = await SessionManager.open("/sessions/x.jsonl", undefined, pinned(fs));
    assert.equal(await readText(fs, "/sessions/x.jsonl"), header, "opening does not repair");
    await session.appendSessionInfo("named");
    const lines = (await readText(fs, "/sessions/x.jsonl"))!.split("\n");
    assert.equal(lines[0], header);
    assert.equal(JSON.parse(lines[1]).name, "named");
  });

  it("the first write refuses a non-empty file already at the path, and rolls back", async () => {
    const fs = new MemoryFileSystem();
    await fs.mkdir("/sessions");
    await fs.append(FILE, bytes("precious\n"));
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    await assert.rejects(session.appendMessage(user("hi")), SessionWriteConflictError);
    assert.equal(await readText(fs, FILE), "precious\n");
    assert.equal(session.getEntries().length, 0);
    assert.equal(session.getLeafId(), null);
  });

  it("a failed append leaves memory exactly as it was; the next append works", async () => {
    const fs = new FlakyFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    const u = await session.appendMessage(user("hi"));
    await session.appendLabelChange(u, "first");
    await session.appendSessionInfo("name");
    const snapshot = { entries: session.getEntries(), leaf: session.getLeafId(), label: session.getLabel(u), name: session.getSessionName() };
    fs.failWrites = true;
    await assert.rejects(session.appendMessage(assistant("lost")), /disk full/);
    await assert.rejects(session.appendLabelChange(u, undefined), /disk full/);
    await assert.rejects(session.appendSessionInfo(""), /disk full/);
    await assert.rejects(session.branchWithSummary(u, "summary"), /disk full/);
    assert.deepEqual(
      { entries: session.getEntries(), leaf: session.getLeafId(), label: session.getLabel(u), name: session.getSessionName() },
      snapshot,
    );
    assert.equal(session.getChildren(u).length, 1);
    fs.failWrites = false;
    const next = await session.appendMessage(assistant("kept"));
    assert.equal(session.getEntry(next)?.parentId, snapshot.leaf);
    const file = await readSession(fs.read(FILE));
    assert.deepEqual(file.entries, session.getEntries());
  });

  it("a failed first write rolls back the message that triggered it", async () => {
    const fs = new FlakyFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    const model = await session.appendModelChange("p", "m");
    fs.failWrites = true;
    await assert.rejects(session.appendMessage(user("hi")));
    assert.deepEqual(session.getEntries().map((e) => e.id), [model]);
    fs.failWrites = false;
    await session.appendMessage(user("again"));
    assert.deepEqual((await readLines(fs, FILE)).map((l) => l.type), ["session", "model_change", "message"]);
  });

  it("appends that are not awaited still run in call order, one chain", async () => {
    const fs = new MemoryFileSystem();
    const session = SessionManager.create("/work", "/sessions", pinned(fs));
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => session.appendMessage(user(`m${i}`))));
    const lines = (await readLines(fs, FILE)).slice(1);
    assert.deepEqual(lines.map((l) => l.id), ids);
    lines.forEach((line, i) => assert.equal(line.parentId, i === 0 ? null : ids[i - 1]));
  });

  it("open() of a missing file keeps its path and creates it at the first message", async () => {
    const fs = new MemoryFileSystem();
    await fs.mkdir("/elsewhere");
    const session = await SessionManager.open("/elsewhere/new.jsonl", undefined, pinned(fs));
    assert.equal(session.getSessionFile(), "/elsewhere/new.jsonl");
    assert.equal(session.getSessionDir(), "/elsewhere");
    assert.equal(session.getCwd(), "/work");
    await session.appendModelChange("p", "m");
    assert.equal(await readText(fs, "/elsewhere/new.jsonl"), null);
    await session.appendMessage(user("hi"));
    assert.equal((await readLines(fs, "/elsewhere/new.jsonl")).length, 3);
  });

  it("open() of an empty file writes nothing; the first message writes it atomically", async () => {
    const fs = new FlakyFileSystem();
    await fs.mkdir("/s");
    await fs.append("/s/empty.jsonl", new Uint8Array());
    const session = await SessionManager.open("/s/empty.jsonl", undefined, pinned(fs));
    assert.equal(await readText(fs, "/s/empty.jsonl"), "");
    await session.appendMessage(user("hi"));
    assert.deepEqual(fs.atomicWrites, ["/s/empty.jsonl"]);
    const lines = await readLines(fs, "/s/empty.jsonl");
    assert.deepEqual(lines.map((l) => l.type), ["session", "message"]);
    assert.equal(lines[0].id, session.getSessionId());
  });

  it("open() of a non-empty file without a header throws NotASessionError and leaves it alone", async () => {
    const fs = new FlakyFileSystem();
    await fs.mkdir("/s");
    for (const content of ["hello\n", "\n\n", '{"type":"message","id":"a"}\n', "[1,2]\n"]) {
      await fs.inner.writeAtomic("/s/bad.jsonl", bytes(content));
      await assert.rejects(SessionManager.open("/s/bad.jsonl", undefined, pinned(fs)), NotASessionError);
      assert.equal(await readText(fs, "/s/bad.jsonl"), content);
    }
    const session = SessionManager.create("/work", "/s", pinned(fs));
    await assert.rejects(session.setSessionFile("/s/bad.jsonl"), NotASessionError);
    assert.equal(fs.appends.length, 0);
  });

  it("open() of a v1 file writes nothing; the first append keeps a .v1.bak and leaves a v3 file", async () => {
    const fs = new MemoryFileSystem();
    const v1 = [
      { type: "session", id: "old", timestamp: "2023-01-01T00:00:00.000Z", cwd: "/proj" },
      { type: "message", timestamp: "2023-01-01T00:00:01.000Z", message: user("one") },
      { type: "message", timestamp: "2023-01-01T00:00:02.000Z", message: assistant("two") },
      { type: "compaction", timestamp: "2023-01-01T00:00:03.000Z", summary: "s", firstKeptEntryIndex: 2, tokensBefore: 9 },
    ].map((o) => JSON.stringify(o) + "\n").join("");
    await fs.mkdir("/s");
    await fs.append("/s/old.jsonl", bytes(v1));
    const session = await SessionManager.open("/s/old.jsonl", undefined, pinned(fs));
    assert.equal(session.getCwd(), "/proj");
    assert.equal(await readText(fs, "/s/old.jsonl"), v1);
    assert.deepEqual((await fs.list("/s")).map((e) => e.name), ["old.jsonl"]);
    const before = session.getEntries();
    assert.ok(before.every((e) => /^[0-9a-f]{8}$/.test(e.id)));
    const id = await session.appendMessage(user("three"));
    assert.equal(await readText(fs, "/s/old.jsonl.v1.bak"), v1);
    const file = await readSession(fs.read("/s/old.jsonl"));
    assert.equal(file.version, 3);
    assert.deepEqual(file.issues, []);
    assert.deepEqual(file.entries, [...before, session.getEntry(id)]);
    assert.equal((file.entries[2] as { firstKeptEntryId?: string }).firstKeptEntryId, before[1].id);
    await session.appendMessage(assistant("four"));
    assert.equal((await readLines(fs, "/s/old.jsonl")).length, 6, "later entries are plain appends");
  });

  it("a migrated file that changed on disk since it was opened is not rewritten", async () => {
    const fs = new MemoryFileSystem();
    const v2 = '{"type":"session","version":2,"id":"v2","timestamp":"2023-01-01T00:00:00.000Z","cwd":"/p"}\n';
    await fs.mkdir("/s");
    await fs.append("/s/v2.jsonl", bytes(v2));
    const session = await SessionManager.open("/s/v2.jsonl", undefined, pinned(fs));
    const extra = '{"type":"custom","customType":"x","id":"other","parentId":null,"timestamp":"2023-01-01T00:00:01.000Z"}\n';
    await fs.append("/s/v2.jsonl", bytes(extra));
    await assert.rejects(session.appendMessage(user("hi")), SessionWriteConflictError);
    assert.equal(await readText(fs, "/s/v2.jsonl"), v2 + extra);
    assert.equal(session.getEntries().length, 0);
  });

  it("new session files and migration backups are created 0600 (node adapter)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pi-session-sm-"));
    try {
      const session = SessionManager.create("/work", dir, pinned(nodeFileSystem));
      await session.appendMessage(user("hi"));
      await session.appendMessage(assistant("hello"));
      const file = session.getSessionFile()!;
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const old = join(dir, "old.jsonl");
      await nodeFileSystem.append(old, bytes('{"type":"session","id":"o","timestamp":"t","cwd":"/w"}\n'), { mode: 0o644 });
      const opened = await SessionManager.open(old, undefined, pinned(nodeFileSystem));
      await opened.appendMessage(user("x"));
      assert.equal((await stat(`${old}.v1.bak`)).mode & 0o777, 0o600);
      assert.equal((await stat(old)).mode & 0o777, 0o644, "a rewrite keeps the file's mode");
      const reread = await readSession(nodeFileSystem.read(file));
      assert.deepEqual(reread.entries, session.getEntries());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
