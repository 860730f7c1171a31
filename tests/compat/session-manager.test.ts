/**
 * `pi-session/compat` on its own (Node, Deno and Bun): pi's synchronous contract (an append is
 * in memory and on disk when it returns), the lock taken synchronously, listing with pi's
 * argument forms, and the module helpers, including where they differ from pi on purpose.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadReference } from "../session/_differential.ts";
import {
  assertValidSessionId,
  type FileEntry,
  findMostRecentSession,
  getLatestCompactionEntry,
  loadEntriesFromFile,
  migrateSessionEntries,
  nodeSyncFileSystem,
  parseSessionEntries,
  SessionManager,
  type SyncFileSystem,
} from "../../src/compat/mod.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { SessionManager as AsyncSessionManager } from "../../src/session/session-manager.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-compat-"));
after(() => rmSync(work, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(work, `f${++folders}`);

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 0 });

describe("pi-session/compat SessionManager", () => {
  it("appendMessage() returns the id at once: getEntry(id) and the file see it without awaiting", () => {
    const dir = folder();
    const session = SessionManager.create("/work/p", dir);
    const id = session.appendMessage(user("hi"));
    assert.equal(typeof id, "string");
    assert.equal(session.getEntry(id)?.type, "message");
    assert.equal(session.getLeafId(), id);
    const lines = readFileSync(session.getSessionFile()!, "utf8").trim().split("\n");
    assert.equal(JSON.parse(lines[1]).id, id);
  });

  it("branch() right after an append moves from the appended entry, as pi's does", () => {
    const session = SessionManager.create("/work/p", folder());
    const first = session.appendMessage(user("one"));
    const second = session.appendMessage(user("two"));
    session.branch(first);
    const third = session.appendMessage(user("three"));
    assert.equal(session.getEntry(third)?.parentId, first);
    assert.deepEqual(session.getChildren(first).map((e) => e.id), [second, third]);
  });

  it("appendUsage() returns the entry and the other appends the id", () => {
    const session = SessionManager.inMemory("/work/p");
    const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
    const entry = session.appendUsage("cache_warm", "p", "m", { input: 1, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1, cost });
    assert.equal(entry.type, "usage");
    assert.equal(session.getEntry(entry.id), entry);
    assert.equal(typeof session.appendSessionInfo("n"), "string");
    assert.equal(session.getEntryCount(), 2);
  });

  it("an append waits for the file lock (a synchronous sleep), then writes, and gives the lock back when the burst ends", async () => {
    const dir = folder();
    const sleeps: number[] = [];
    const session = SessionManager.create("/work/p", dir, {
      sleep: (ms) => {
        sleeps.push(ms);
        rmSync(`${session.getSessionFile()}.lock`, { recursive: true });
      },
    });
    session.appendMessage(user("first"));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the burst that wrote the file gives its lock back
    mkdirSync(`${session.getSessionFile()}.lock`);
    const id = session.appendMessage(user("second"));
    assert.equal(sleeps.length, 1);
    assert.match(readFileSync(session.getSessionFile()!, "utf8"), new RegExp(id));
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(existsSync(`${session.getSessionFile()}.lock`), false);
  });

  it("a failed append throws synchronously and leaves memory as it was", () => {
    const dir = folder();
    const full = () => {
      throw new Error("disk full");
    };
    const failing: SyncFileSystem = { ...nodeSyncFileSystem, append: full, writeAtomic: full };
    const session = SessionManager.create("/work/p", dir, { fs: failing });
    const before = session.appendModelChange("p", "m"); // in memory only: no conversation yet
    assert.throws(() => session.appendMessage(user("hi")), /disk full/);
    assert.equal(session.getLeafId(), before);
    assert.equal(session.getEntryCount(), 1);
  });

  it("two managers appending in turn to one file form one chain (each takes in the other's entries under the lock)", () => {
    const first = SessionManager.create("/work/p", folder());
    first.appendMessage(user("hi"));
    const file = first.getSessionFile()!;
    const a = SessionManager.open(file);
    const b = SessionManager.open(file);
    for (let i = 0; i < 3; i++) {
      a.appendSessionInfo(`a${i}`);
      b.appendCustomEntry("b", { i });
    }
    const lines = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(lines.length, 1 + 1 + 6);
    for (let i = 2; i < lines.length; i++) assert.equal(lines[i].parentId, lines[i - 1].id);
    assert.deepEqual(b.getEntries().map((e) => e.id), lines.slice(1).map((l) => l.id));
  });

  it("an old-format file is migrated in memory on open and rewritten, with a backup, at the first append", () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "old.jsonl");
    const v1 = '{"type":"session","id":"old","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/p"}\n{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}\n';
    writeFileSync(path, v1);
    const session = SessionManager.open(path);
    assert.equal(readFileSync(path, "utf8"), v1, "open wrote nothing");
    assert.equal(session.getHeader().version, 3);
    const id = session.appendMessage(user("again"));
    assert.equal(readFileSync(`${path}.v1.bak`, "utf8"), v1);
    const lines = readFileSync(path, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((l) => l.id), ["old", session.getEntries()[0].id, id]);
    assert.equal(lines[0].version, 3);
  });

  it("open(path, dir, cwdOverride) takes pi's positional cwd override", () => {
    const session = SessionManager.create("/work/p", folder());
    session.appendMessage(user("hi"));
    const reopened = SessionManager.open(session.getSessionFile()!, undefined, "/work/elsewhere");
    assert.equal(reopened.getCwd(), "/work/elsewhere");
    assert.equal(reopened.getEntries().length, 1);
  });

  it("open() of a file that is not a session throws pi's message and leaves the file alone", () => {
    const path = join(folder(), "notes.jsonl");
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "hello\n");
    assert.throws(() => SessionManager.open(path), { message: `Session file is not a valid pi session: ${path}` });
    assert.equal(readFileSync(path, "utf8"), "hello\n");
  });

  it("newSession() and forkFrom() refuse a bad id with pi's message", () => {
    const session = SessionManager.inMemory("/work/p");
    assert.throws(() => session.newSession({ id: "-bad" }), { message: /^Session id must be non-empty, .*alphanumeric character$/ });
    const source = SessionManager.create("/work/p", folder());
    source.appendMessage(user("hi"));
    assert.throws(() => SessionManager.forkFrom(source.getSessionFile()!, "/work/q", folder(), { id: "bad id" }), { message: /^Session id must be non-empty, .*alphanumeric character$/ });
    assert.throws(() => assertValidSessionId(""), { message: /^Session id must be non-empty/ });
    assert.doesNotThrow(() => assertValidSessionId("a.b-c_d"));
  });

  it("findById() finds a session by its exact id, and continueRecent() opens the newest", () => {
    const dir = folder();
    const session = SessionManager.create("/work/p", dir);
    session.appendMessage(user("hi"));
    assert.equal(SessionManager.findById("/work/p", session.getSessionId(), dir), session.getSessionFile());
    assert.equal(SessionManager.findById("/work/p", "missing", dir), undefined);
    assert.equal(SessionManager.continueRecent("/work/p", dir).getSessionFile(), session.getSessionFile());
    assert.equal(findMostRecentSession(dir), session.getSessionFile());
    assert.equal(findMostRecentSession(dir, "/work/other"), null);
  });

  it("list(cwd, dir, onProgress) reports progress with the sessions found so far", async () => {
    const dir = folder();
    for (const text of ["a", "b"]) SessionManager.create("/work/p", dir).appendMessage(user(text));
    const calls: [number, number, number | undefined][] = [];
    const sessions = await SessionManager.list("/work/p", dir, (loaded, total, partial) => calls.push([loaded, total, partial?.length]));
    assert.equal(sessions.length, 2);
    assert.deepEqual(calls, [[1, 2, 1], [2, 2, 2]]);
  });

  it("listAll(dir), listAll(dir, onProgress) and listAll(onProgress, signal) take pi's argument forms", async () => {
    const dir = folder();
    SessionManager.create("/work/p", dir).appendMessage(user("a"));
    assert.equal((await SessionManager.listAll(dir)).length, 1);
    let progress = 0;
    assert.equal((await SessionManager.listAll(dir, () => progress++)).length, 1);
    assert.equal(progress, 1);
    const agentDir = folder();
    SessionManager.create("/work/q", join(agentDir, "sessions", "--work-q--")).appendMessage(user("b"));
    const all = await SessionManager.listAll(() => {}, undefined, { agentDir });
    assert.deepEqual(all.map((s) => s.firstMessage), ["b"]);
    const aborted = AbortSignal.abort();
    await assert.rejects(SessionManager.listAll(dir, undefined, aborted));
  });
});

describe("pi-session/compat over a memory disk", () => {
  it("writes through MemoryFileSystem's sync view what the async SessionManager then reads from the same disk", async () => {
    const memory = new MemoryFileSystem();
    let n = 0;
    const options = { fs: memory.sync, clock: () => new Date(Date.UTC(2024, 0, 1, 0, 0, ++n)), newId: () => `e${String(n).padStart(7, "0")}`, newSessionId: () => "s1" };
    const session = SessionManager.create("/work/p", "/sessions", options);
    const id = session.appendMessage(user("hi"));
    assert.equal(session.getSessionFile(), "/sessions/2024-01-01T00-00-01-000Z_s1.jsonl");
    const reopened = await AsyncSessionManager.open(session.getSessionFile()!, undefined, { fs: memory });
    assert.deepEqual(reopened.getEntries().map((e) => e.id), [id]);
    assert.deepEqual((await SessionManager.list("/work/p", "/sessions", undefined, undefined, options)).map((s) => s.id), ["s1"]);
    assert.equal(await memory.stat("/sessions/2024-01-01T00-00-01-000Z_s1.jsonl.lock"), null);
  });
});

describe("pi-session/compat helpers", () => {
  it("parseSessionEntries() keeps every JSON line and skips the others", () => {
    assert.deepEqual(parseSessionEntries('{"type":"session","id":"s"}\nnot json\n\n{"a":1}\n'), [{ type: "session", id: "s" }, { a: 1 }]);
  });

  it("loadEntriesFromFile() reads a torn file without completing its last line (reading never writes)", () => {
    const path = join(folder(), "torn.jsonl");
    mkdirSync(join(path, ".."), { recursive: true });
    const text = '{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n{"type":"custom","id":"a","parentId":null,"timestamp":"t","customType":"x"}';
    writeFileSync(path, text);
    assert.equal(loadEntriesFromFile(path).length, 2);
    assert.equal(readFileSync(path, "utf8"), text);
    assert.deepEqual(loadEntriesFromFile(join(work, "missing.jsonl")), []);
  });

  it("migrateSessionEntries() migrates the array and its objects in place", () => {
    const header = { type: "session", id: "s", timestamp: "t", cwd: "/" };
    const message = { type: "message", timestamp: "t", message: { role: "hookMessage", content: "x" } };
    const entries = [header, message] as unknown as FileEntry[];
    migrateSessionEntries(entries);
    assert.equal(entries[0], header);
    assert.equal(entries[1], message);
    assert.equal((header as { version?: number }).version, 3);
    assert.equal(typeof (message as { id?: string }).id, "string");
    assert.equal((message as { parentId?: string | null }).parentId, null);
    assert.equal((entries[1] as { message: { role: string } }).message.role, "custom");
  });

  it("migrateSessionEntries() keeps whole an entry the migration leaves as it was (a v2 user message beside a hookMessage), as pi's does", async () => {
    const make = () => [
      { type: "session", version: 2, id: "s2", timestamp: "t", cwd: "/" },
      { type: "message", id: "abc12345", parentId: null, timestamp: "t", message: { role: "user", content: "hi", timestamp: 1 } },
      { type: "message", id: "def67890", parentId: "abc12345", timestamp: "t", message: { role: "hookMessage", content: "x", timestamp: 2 } },
    ] as unknown as FileEntry[];
    const ours = make();
    const user = ours[1];
    migrateSessionEntries(ours);
    assert.equal(ours[1], user);
    assert.deepEqual(ours[1], make()[1], "the user message is untouched");
    assert.equal((ours[2] as { message: { role: string } }).message.role, "custom");
    const { ref } = await loadReference();
    if (ref) {
      const theirs = make();
      ref.migrateSessionEntries(theirs);
      assert.deepEqual(ours, theirs);
    }
  });

  it("getLatestCompactionEntry() finds the last compaction", () => {
    const session = SessionManager.inMemory("/work/p");
    session.appendMessage(user("a"));
    const id = session.appendCompaction("s", null, 10);
    assert.equal(getLatestCompactionEntry(session.getEntries())?.id, id);
    assert.equal(getLatestCompactionEntry([]), null);
  });
});
