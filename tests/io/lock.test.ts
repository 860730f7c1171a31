/**
 * Tests for `withFileLock`: exclusion, stale locks, timeouts and release, on the memory file
 * system with a pinned clock, plus one run on disk.
 * @module
 */

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { type FileSystem, FsError, isFsError } from "../../src/io/file-system.ts";
import { withFileLock } from "../../src/io/lock.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { nodeFileSystem } from "../../src/io/node.ts";

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs two locked sections at once and returns the order they entered and left in. */
async function runTwo(fs: FileSystem, path: string): Promise<string[]> {
  const events: string[] = [];
  const section = (name: string) => async () => {
    events.push(`${name} in`);
    assert.equal((await fs.stat(`${path}.lock`))?.isDirectory, true);
    await delay(15);
    events.push(`${name} out`);
  };
  const fast = { sleep: () => delay(2) };
  await Promise.all([withFileLock(fs, path, section("A"), fast), withFileLock(fs, path, section("B"), fast)]);
  return events;
}

describe("withFileLock()", () => {
  it("withFileLock() lets one caller in at a time", async () => {
    const fs = new MemoryFileSystem();
    const events = await runTwo(fs, "/s.jsonl");
    assert.deepEqual(events, ["A in", "A out", "B in", "B out"]);
    assert.equal(await fs.stat("/s.jsonl.lock"), null);
  });

  it("withFileLock() lets one caller in at a time on disk", async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-lock-"));
    try {
      const events = await runTwo(nodeFileSystem, join(root, "s.jsonl"));
      // Either may win the race to the disk, but the sections never overlap.
      const first = events[0]!.split(" ")[0];
      const second = first === "A" ? "B" : "A";
      assert.deepEqual(events, [`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
      assert.deepEqual(await nodeFileSystem.list(root), []);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("withFileLock() breaks a lock older than staleMs", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const fs = new MemoryFileSystem({ clock });
    await fs.mkdir("/s.jsonl.lock");
    now += 30_001;
    const sleep = () => Promise.reject(new Error("a stale lock must not be waited for"));
    assert.equal(await withFileLock(fs, "/s.jsonl", async () => "ran", { clock, sleep }), "ran");
    assert.equal(await fs.stat("/s.jsonl.lock"), null);
  });

  it("withFileLock() gives up after timeoutMs with a clear message", async () => {
    let now = 1_000_000;
    const clock = () => now;
    const fs = new MemoryFileSystem({ clock });
    await fs.mkdir("/s.jsonl.lock");
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      now += ms;
    };
    let ran = false;
    const locked = withFileLock(fs, "/s.jsonl", async () => {
      ran = true;
    }, { clock, sleep, timeoutMs: 200 });
    await assert.rejects(locked, (error: unknown) => {
      assert.ok(error instanceof FsError);
      assert.equal(error.kind, "Other");
      assert.equal(error.message, "Cannot lock session file /s.jsonl: another process holds /s.jsonl.lock");
      return true;
    });
    assert.equal(ran, false);
    assert.equal(waits.reduce((sum, ms) => sum + ms, 0), 200);
    assert.ok(waits.every((ms) => ms <= 100), `waits ${waits.join(", ")} exceed the backoff cap`);
    assert.equal((await fs.stat("/s.jsonl.lock"))?.isDirectory, true, "someone else's lock stays");
  });

  it("withFileLock() releases the lock when fn throws", async () => {
    const fs = new MemoryFileSystem();
    await assert.rejects(
      withFileLock(fs, "/s.jsonl", () => Promise.reject(new Error("boom"))),
      { message: "boom" },
    );
    assert.equal(await fs.stat("/s.jsonl.lock"), null);
    assert.equal(await withFileLock(fs, "/s.jsonl", async () => 42), 42);
  });

  it("withFileLock() passes on failures other than a held lock", async () => {
    const fs = new MemoryFileSystem();
    await assert.rejects(
      withFileLock(fs, "/missing-dir/s.jsonl", async () => "never"),
      (error: unknown) => isFsError(error, "NotFound"),
    );
  });
});
