/**
 * Two writers on one session file (issue 16, defect 2): each append picks its parent under the
 * file lock, after taking in what the other appended, so the file stays one chain. A manager whose
 * leaf the caller moved keeps it there.
 * @module
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SessionEntry } from "../../src/core/format/types.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { assistant, FlakyFileSystem, pinned, readLines, user } from "./_fixtures.ts";

/** Options like `pinned`, with entry ids of their own (`a0000001`…) so two managers never clash. */
function writer(fs: MemoryFileSystem | FlakyFileSystem, prefix: string) {
  let n = 0;
  return pinned(fs, { newId: () => `${prefix}${(++n).toString().padStart(7, "0")}` });
}

/** The ids no entry names as its parent. */
function leaves(entries: readonly Record<string, unknown>[]): unknown[] {
  const parents = new Set(entries.map((e) => e.parentId));
  return entries.filter((e) => e.type !== "session" && !parents.has(e.id)).map((e) => e.id);
}

async function started(fs: MemoryFileSystem | FlakyFileSystem): Promise<string> {
  const first = SessionManager.create("/work", "/sessions", writer(fs, "s"));
  await first.appendMessage(user("hi"));
  await first.appendMessage(assistant("hello"));
  return first.getSessionFile()!;
}

describe("SessionManager with another writer on the file", () => {
  it("a last line another process was still writing when the file was read is taken in whole before the next append", async () => {
    const fs = new MemoryFileSystem();
    const file = await started(fs);
    const other = JSON.stringify({ type: "session_info", id: "o0000001", parentId: (await readLines(fs, file)).at(-1)!.id, timestamp: "2026-01-01T00:00:00.000Z", name: "theirs" }) + "\n";
    const cut = 20;
    // We read the file while the other writer's line is only partly there (a read can see part of a write).
    await fs.append(file, new TextEncoder().encode(other.slice(0, cut)));
    const ours = await SessionManager.open(file, undefined, writer(fs, "m"));
    await fs.append(file, new TextEncoder().encode(other.slice(cut)));
    await ours.appendSessionInfo("ours");
    const lines = await readLines(fs, file);
    assert.deepEqual(lines.slice(-2).map((l) => l.id), ["o0000001", ours.getLeafId()]);
    assert.equal(lines.at(-1)!.parentId, "o0000001", "our entry hangs under theirs");
    assert.deepEqual(leaves(lines), [ours.getLeafId()]);
  });

  it("two managers appending in turn form one chain, each taking in the other's entries", async () => {
    const fs = new MemoryFileSystem();
    const file = await started(fs);
    const a = await SessionManager.open(file, undefined, writer(fs, "a"));
    const b = await SessionManager.open(file, undefined, writer(fs, "b"));
    for (let i = 0; i < 3; i++) {
      await a.appendSessionInfo(`a${i}`);
      await b.appendLabelChange(b.getEntries()[0].id, `b${i}`);
    }
    const lines = await readLines(fs, file);
    assert.equal(lines.length, 1 + 2 + 6);
    for (let i = 2; i < lines.length; i++) assert.equal(lines[i].parentId, lines[i - 1].id, `line ${i + 1} hangs under the line before`);
    assert.deepEqual(leaves(lines), [lines.at(-1)!.id]);
    assert.deepEqual(b.getEntries().map((e) => e.id), lines.slice(1).map((l) => l.id));
    assert.equal(b.getLeafId(), lines.at(-1)!.id);
    assert.equal(b.getSessionName(), "a2");
    assert.equal(a.getEntries().length, 7, "a has not seen b's last entry yet");
  });

  it("a manager whose leaf was moved appends there, and still takes in the other's entries", async () => {
    const fs = new MemoryFileSystem();
    const file = await started(fs);
    const a = await SessionManager.open(file, undefined, writer(fs, "a"));
    const b = await SessionManager.open(file, undefined, writer(fs, "b"));
    const first = b.getEntries()[0].id;
    b.branch(first);
    const other = await a.appendMessage(user("from a"));
    const mine = await b.appendMessage(user("from b, on the first message"));
    assert.equal(b.getEntry(mine)?.parentId, first);
    assert.equal(b.getEntry(other)?.type, "message", "a's entry was taken in");
    assert.equal(b.getLeafId(), mine);
    const lines = await readLines(fs, file);
    assert.deepEqual(lines.slice(1).map((l) => l.id), [...b.getEntries().map((e: SessionEntry) => e.id)]);
  });

  it("a failed append after taking in the other's entries leaves memory as it was", async () => {
    const fs = new FlakyFileSystem();
    const file = await started(fs);
    const a = await SessionManager.open(file, undefined, writer(fs, "a"));
    const b = await SessionManager.open(file, undefined, writer(fs, "b"));
    await a.appendSessionInfo("named by a");
    const before = b.getEntries().map((e) => e.id);
    fs.failWrites = true;
    await assert.rejects(b.appendSessionInfo("named by b"));
    assert.deepEqual(b.getEntries().map((e) => e.id), before);
    assert.equal(b.getSessionName(), undefined);
    fs.failWrites = false;
    const id = await b.appendSessionInfo("named by b");
    const lines = await readLines(fs, file);
    assert.equal(lines.at(-1)!.id, id);
    assert.equal(lines.at(-1)!.parentId, lines.at(-2)!.id);
    assert.deepEqual(leaves(lines), [id]);
  });
});
