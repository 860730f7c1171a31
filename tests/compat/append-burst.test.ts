/**
 * A synchronous burst of appends (issue 18's speed target): the file lock is taken once for the
 * burst and given back when it ends, while every line still goes out under it, one line an
 * append, its parent chosen after taking in what others appended.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, describe, it } from "node:test";
import { nodeSyncFileSystem, SessionManager, type SyncFileSystem } from "../../src/compat/mod.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "pi-session-burst-"));
after(() => rmSync(work, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(work, `f${++folders}`);

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 0 });
const endOfBurst = () => new Promise((resolve) => setTimeout(resolve, 0));
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));

/**
 * Node's sync disk whose open files' `method` throws `message` while `failing` is set: a burst
 * whose write (`append`) or size check (`endsAt`) fails must throw, leave memory as it was and
 * give the lock back at once, and the next append must go on from the last line written.
 */
function failingBurst(method: "append" | "endsAt", message: string): void {
  let failing = false;
  const fs: SyncFileSystem = {
    ...nodeSyncFileSystem,
    openAppend(path) {
      const handle = nodeSyncFileSystem.openAppend!(path);
      const failIn = (called: typeof method) => {
        if (failing && called === method) throw new Error(message);
      };
      return {
        path,
        endsAt: (size) => {
          failIn("endsAt");
          return handle.endsAt(size);
        },
        append: (text) => {
          failIn("append");
          return handle.append(text);
        },
        close: () => handle.close(),
      };
    },
  };
  const session = SessionManager.create("/work/p", folder(), { fs });
  session.appendMessage(user("first"));
  const second = session.appendMessage(user("second"));
  failing = true;
  assert.throws(() => session.appendMessage(user("third")), new RegExp(message));
  const file = session.getSessionFile()!;
  assert.equal(existsSync(`${file}.lock`), false);
  assert.deepEqual([session.getLeafId(), session.getEntryCount()], [second, 2]);
  failing = false;
  const fourth = session.appendMessage(user("fourth"));
  assert.deepEqual(lines(file).slice(1).map((l) => l.id), [session.getEntries()[0].id, second, fourth]);
}

/** Node's sync disk, counting the locks taken (a lock is taken by renaming a folder into place). */
function countingLocks(): { fs: SyncFileSystem; taken: () => number } {
  let taken = 0;
  const fs: SyncFileSystem = {
    ...nodeSyncFileSystem,
    rename(from, to) {
      nodeSyncFileSystem.rename(from, to);
      if (to.endsWith(".jsonl.lock")) taken++;
    },
  };
  return { fs, taken: () => taken };
}

describe("pi-session/compat: a burst of appends", () => {
  it("takes the file lock once and gives it back when the burst ends", async () => {
    const { fs, taken } = countingLocks();
    const session = SessionManager.create("/work/p", folder(), { fs });
    session.appendMessage(user("first")); // the new file, written whole under its lock, which is kept
    for (let i = 0; i < 20; i++) session.appendMessage(user(`burst ${i}`));
    assert.equal(taken(), 1, "the new file's lock, kept for the burst");
    const file = session.getSessionFile()!;
    assert.equal(existsSync(`${file}.lock`), true, "held while the burst goes on");
    await endOfBurst();
    assert.equal(existsSync(`${file}.lock`), false);
    session.appendMessage(user("next burst"));
    assert.equal(taken(), 2);
    await endOfBurst();
    assert.equal(existsSync(`${file}.lock`), false);
    const written = lines(file);
    assert.equal(written.length, 1 + 22);
    for (let i = 2; i < written.length; i++) assert.equal(written[i].parentId, written[i - 1].id);
  });

  it("takes in a line another writer appended without the lock between two appends: the next hangs under it", () => {
    const session = SessionManager.create("/work/p", folder());
    const first = session.appendMessage(user("first"));
    const second = session.appendMessage(user("second"));
    const file = session.getSessionFile()!;
    const theirs = { type: "session_info", id: "0ther001", parentId: second, timestamp: "2026-01-01T00:00:00.000Z", name: "theirs" };
    appendFileSync(file, JSON.stringify(theirs) + "\n");
    const third = session.appendMessage(user("third"));
    assert.deepEqual(lines(file).slice(1).map((l) => [l.id, l.parentId]), [[first, null], [second, first], ["0ther001", second], [third, "0ther001"]]);
    assert.equal(session.getSessionName(), "theirs");
  });

  it("writes the next line to a file that replaced the first during the burst, not to the replaced one", () => {
    const session = SessionManager.create("/work/p", folder());
    session.appendMessage(user("first"));
    session.appendMessage(user("second"));
    const file = session.getSessionFile()!;
    const copy = `${file}.copy`;
    writeFileSync(copy, readFileSync(file));
    renameSync(copy, file);
    const third = session.appendMessage(user("third"));
    assert.equal(lines(file).at(-1).id, third);
  });

  it("a write that fails throws, leaves memory as it was and gives the lock back at once", () => {
    failingBurst("append", "disk full");
  });

  it("bursts here and appends of another process at the same time form one chain, every line exactly once", { timeout: 60_000 }, async () => {
    const session = SessionManager.create("/work/p", folder());
    session.appendMessage(user("start"));
    const file = session.getSessionFile()!;
    const script = join(work, "child-appends.mts");
    writeFileSync(script, `
import process from "node:process";
import { SessionManager } from ${JSON.stringify(join(root, "src/compat/mod.ts"))};
const [file, count] = process.argv.slice(-2);
const session = SessionManager.open(file);
console.log("ready");
for (let i = 0; i < Number(count); i++) {
  session.appendMessage({ role: "user", content: "child-" + i, timestamp: i });
  if (i % 3 === 2) await new Promise((resolve) => setTimeout(resolve, 1));
}
`);
    const runtime = "Deno" in globalThis ? ["run", "-A", "--no-check", script] : "Bun" in globalThis ? [script] : ["--import", "tsx", script];
    const child = spawn(process.execPath, [...runtime, file, "150"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    let done = false;
    void exited.then(() => done = true);
    let ours = 0;
    while (!done || ours < 100) {
      for (let i = 0; i < 10; i++) session.appendMessage(user(`main-${ours++}`));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(await exited, 0);
    await endOfBurst();
    assert.equal(existsSync(`${file}.lock`), false);
    const written = lines(file);
    const contents = written.slice(1).map((l) => l.message.content as string);
    assert.equal(new Set(written.map((l) => l.id)).size, written.length, "no id twice");
    assert.deepEqual(contents.filter((c) => c.startsWith("child-")), Array.from({ length: 150 }, (_, i) => `child-${i}`));
    assert.deepEqual(contents.filter((c) => c.startsWith("main-")), Array.from({ length: ours }, (_, i) => `main-${i}`));
    for (let i = 2; i < written.length; i++) assert.equal(written[i].parentId, written[i - 1].id, `line ${i + 1} hangs under line ${i}`);
    const firstChild = contents.findIndex((c) => c.startsWith("child-"));
    const lastChild = contents.findLastIndex((c) => c.startsWith("child-"));
    assert.ok(contents.slice(firstChild, lastChild).some((c) => c.startsWith("main-")), "the two writers took turns");
  });

  it("sends a burst's lines after the first through the kept open file, each after a size check, and labels and names in it too", async () => {
    let byPath = 0;
    let checks = 0;
    let byHandle = 0;
    const fs: SyncFileSystem = {
      ...nodeSyncFileSystem,
      append(path, data, options) {
        if (path.endsWith(".jsonl")) byPath++;
        nodeSyncFileSystem.append(path, data, options);
      },
      openAppend(path) {
        const handle = nodeSyncFileSystem.openAppend!(path);
        return {
          path,
          endsAt: (size) => (checks++, handle.endsAt(size)),
          append: (text) => (byHandle++, handle.append(text)),
          close: () => handle.close(),
        };
      },
    };
    const session = SessionManager.create("/work/p", folder(), { fs });
    const first = session.appendMessage(user("first")); // the new file, written whole; its lock is kept
    session.appendMessage(user("second"));
    for (let i = 0; i < 10; i++) session.appendMessage(user(`burst ${i}`));
    const label = session.appendLabelChange(first, "start");
    session.appendSessionInfo("named\nin a burst");
    assert.throws(() => session.appendLabelChange("nope", "x"), /nope/);
    assert.deepEqual({ byPath, checks, byHandle }, { byPath: 0, checks: 13, byHandle: 13 });
    await endOfBurst();
    session.appendMessage(user("next burst")); // takes the lock, by the path
    session.appendMessage(user("and on"));
    assert.deepEqual({ byPath, checks, byHandle }, { byPath: 1, checks: 14, byHandle: 14 });
    const written = lines(session.getSessionFile()!);
    assert.equal(written.length, 1 + 16);
    for (let i = 2; i < written.length; i++) assert.equal(written[i].parentId, written[i - 1].id);
    assert.deepEqual(written.slice(1).map((l) => l.id), session.getEntries().map((e) => e.id));
    assert.equal(written.at(-4).id, label);
    assert.equal(session.getLabel(first), "start");
    assert.equal(session.getSessionName(), "named in a burst");
  });

  it("a size check that fails throws, leaves memory as it was and gives the lock back at once", () => {
    failingBurst("endsAt", "bad descriptor");
  });
});
