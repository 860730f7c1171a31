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
import { takeLock, withFileLock } from "../../src/io/lock.ts";
import { runStepsSync } from "../../src/io/run-sync.ts";
import type { SyncFileSystem } from "../../src/io/sync-file-system.ts";
import { formatHolder, type LockHolder } from "../../src/io/lock-holder.ts";
import type { ProcessProbe } from "../../src/io/process-probe.ts";
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
      assert.equal(error.message, "Cannot lock session file /s.jsonl: /s.jsonl.lock is held by an unknown process (its lock is 0 s old)");
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

/** A probe for a host where only the pids in `alive` run, each with the start time given. */
function fakeProbe(alive: Record<number, string>, self: { pid: number; host: string; space?: string } = { pid: 100, host: "here" }): ProcessProbe {
  return {
    pid: self.pid,
    hostname: self.host,
    pidSpace: self.space,
    startTime: alive[self.pid],
    isAlive: (pid) => pid in alive,
    startTimeOf: (pid) => alive[pid],
  };
}

async function leaveLock(fs: FileSystem, path: string, holder: LockHolder): Promise<void> {
  await fs.mkdir(`${path}.lock`);
  await fs.append(`${path}.lock/holder.json`, new TextEncoder().encode(formatHolder(holder)));
}

const noWait = () => Promise.reject(new Error("a stale lock must not be waited for"));

describe("withFileLock() and the lock's holder", () => {
  const at = Date.parse("2026-01-02T14:02:11Z");
  const holder = (pid: number, host = "here", start = "500"): LockHolder => ({ pid, host, start, since: at, token: `t${pid}` });

  it("withFileLock() records pid, host, start time and since in the lock", async () => {
    const fs = new MemoryFileSystem({ clock: () => at });
    const probe = fakeProbe({ 100: "700" });
    const seen = await withFileLock(fs, "/s.jsonl", async () => {
      let text = "";
      for await (const chunk of fs.read("/s.jsonl.lock/holder.json")) text += new TextDecoder().decode(chunk);
      return JSON.parse(text);
    }, { probe, clock: () => at });
    assert.deepEqual({ ...seen, token: typeof seen.token }, { pid: 100, host: "here", start: "700", since: at, token: "string" });
    assert.equal(await fs.stat("/s.jsonl.lock"), null);
  });

  it("withFileLock() breaks at once a lock whose holder on this host is gone", async () => {
    const fs = new MemoryFileSystem({ clock: () => at });
    await leaveLock(fs, "/s.jsonl", holder(4242));
    const result = await withFileLock(fs, "/s.jsonl", async () => "ran", { probe: fakeProbe({ 100: "1" }), clock: () => at, sleep: noWait });
    assert.equal(result, "ran");
    assert.deepEqual(await fs.list("/"), []);
  });

  it("withFileLock() breaks at once a lock whose pid now belongs to another process", async () => {
    const fs = new MemoryFileSystem({ clock: () => at });
    await leaveLock(fs, "/s.jsonl", holder(4242, "here", "500"));
    const probe = fakeProbe({ 100: "1", 4242: "999" });
    assert.equal(await withFileLock(fs, "/s.jsonl", async () => "ran", { probe, clock: () => at, sleep: noWait }), "ran");
  });

  it("withFileLock() never breaks a live holder's lock on this host, however old, and says who holds it", async () => {
    let now = at;
    const clock = () => now;
    const fs = new MemoryFileSystem({ clock });
    await leaveLock(fs, "/s.jsonl", holder(4242));
    now += 600_000; // ten minutes without a heartbeat (a long synchronous read)
    const sleep = async (ms: number) => void (now += ms);
    await assert.rejects(
      withFileLock(fs, "/s.jsonl", async () => "ran", { probe: fakeProbe({ 100: "1", 4242: "500" }), clock, sleep, timeoutMs: 200 }),
      (error: unknown) => {
        assert.ok(error instanceof FsError);
        assert.equal(error.message, "Cannot lock session file /s.jsonl: /s.jsonl.lock is held by pid 4242 on host here since 14:02:11 UTC (600 s ago)");
        assert.match(error.hint ?? "", /Wait for that process to finish/);
        return true;
      },
    );
    assert.equal((await fs.stat("/s.jsonl.lock/holder.json"))?.isFile, true);
  });

  it("withFileLock() judges a holder on another host by its heartbeat's age", async () => {
    let now = at;
    const clock = () => now;
    const fs = new MemoryFileSystem({ clock });
    const probe = fakeProbe({ 100: "1" });
    await leaveLock(fs, "/s.jsonl", holder(4242, "elsewhere"));
    now += 20_000;
    await fs.append("/s.jsonl.lock/holder.json", new Uint8Array([0x0a])); // a heartbeat
    now += 20_000; // 40 s after taking, 20 s after the heartbeat: still fresh
    const sleep = async (ms: number) => void (now += ms);
    await assert.rejects(withFileLock(fs, "/s.jsonl", async () => "ran", { probe, clock, sleep, timeoutMs: 100 }), /held by pid 4242 on host elsewhere/);
    now += 10_001;
    assert.equal(await withFileLock(fs, "/s.jsonl", async () => "ran", { probe, clock, sleep: noWait }), "ran");
  });

  it("withFileLock() does not ask about the pid of a holder in another pid namespace (a container) under the same host name", async () => {
    const fs = new MemoryFileSystem({ clock: () => at });
    await leaveLock(fs, "/s.jsonl", { ...holder(4242), space: "pid:[1]" });
    const probe = fakeProbe({ 100: "1" }, { pid: 100, host: "here", space: "pid:[2]" });
    await assert.rejects(withFileLock(fs, "/s.jsonl", async () => "ran", { probe, clock: () => at, sleep: async () => {}, timeoutMs: 0 }), /held by pid 4242/);
  });

  it("withFileLock() keeps a long holder's lock fresh with a heartbeat", async () => {
    const fs = new MemoryFileSystem();
    await withFileLock(fs, "/s.jsonl", async () => {
      const first = (await fs.stat("/s.jsonl.lock/holder.json"))!.size;
      while ((await fs.stat("/s.jsonl.lock/holder.json"))!.size === first) await delay(2);
    }, { heartbeatMs: 1, probe: fakeProbe({ 100: "1" }) });
    assert.equal(await fs.stat("/s.jsonl.lock"), null);
  });

  it("withFileLock() removes a killed writer's temp files beside the file, and nothing else", async () => {
    const fs = new MemoryFileSystem({ clock: () => at });
    await fs.mkdir("/d");
    await leaveLock(fs, "/d/s.jsonl", holder(4242));
    const keep = ["s.jsonl", ".t.jsonl.0123456789ab.tmp", ".s.jsonl.0123456789ab.tmp.x", "s.jsonl.v1.bak", ".s.jsonl.v1.bak.x.0123456789ab.tmp", "..t.jsonl.0123456789ab.tmp.a1b2c3d4e5f6.tmp"];
    // Leftovers: temp files of the file and of its backups, and a temp of a rewrite's temp file
    // (writeAtomic of the rewrite's temp, killed while it wrote).
    const leftovers = [".s.jsonl.0123456789ab.tmp", ".s.jsonl.v1.bak.2.0123456789ab.tmp", ".s.jsonl.repair.bak.0123456789ab.tmp", "..s.jsonl.0123456789ab.tmp.a1b2c3d4e5f6.tmp"];
    for (const name of [...keep, ...leftovers]) await fs.append(`/d/${name}`, new Uint8Array([1]));
    await leaveLock(fs, "/d/.s.jsonl.lock.a1b2c3d4e5f6", holder(4343)); // a lock a killed process was taking
    await fs.rename("/d/.s.jsonl.lock.a1b2c3d4e5f6.lock", "/d/.s.jsonl.lock.a1b2c3d4e5f6.tmp");
    await withFileLock(fs, "/d/s.jsonl", async () => {}, { probe: fakeProbe({ 100: "1" }), clock: () => at, sleep: noWait });
    assert.deepEqual((await fs.list("/d")).map((entry) => entry.name).sort(), keep.sort());
  });

  it("withFileLock() keeps a lock that a live process is taking, and removes the temp file of a write that was killed", async () => {
    const fs = new MemoryFileSystem({ clock: () => at });
    await fs.append("/.s.jsonl.0123456789ab.tmp", new Uint8Array([1]));
    await leaveLock(fs, "/.s.jsonl.lock.a1b2c3d4e5f6", holder(77, "here", "9"));
    await fs.rename("/.s.jsonl.lock.a1b2c3d4e5f6.lock", "/.s.jsonl.lock.a1b2c3d4e5f6.tmp");
    await withFileLock(fs, "/s.jsonl", async () => {}, { probe: fakeProbe({ 100: "1", 77: "9" }), clock: () => at });
    assert.deepEqual((await fs.list("/")).map((entry) => entry.name), [".s.jsonl.lock.a1b2c3d4e5f6.tmp"]);
  });

  it("withFileLock() lets only one of many waiters break a dead holder's lock", async () => {
    const root = await mkdtemp(join(tmpdir(), "pi-session-lock-"));
    try {
      const path = join(root, "s.jsonl");
      const probe = fakeProbe({ 100: "1" });
      for (let round = 0; round < 10; round++) {
        await leaveLock(nodeFileSystem, path, holder(4242));
        let inside = 0;
        let most = 0;
        const section = async () => {
          most = Math.max(most, ++inside);
          await delay(1);
          inside--;
        };
        await Promise.all(Array.from({ length: 6 }, () => withFileLock(nodeFileSystem, path, section, { probe, sleep: () => delay(1) })));
        assert.equal(most, 1, `round ${round}: two waiters held the lock at once`);
        assert.deepEqual(await nodeFileSystem.list(root), []);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("withFileLock() and two breakers", () => {
  it("withFileLock() never lets a slow breaker remove the lock a faster one has just taken", async () => {
    const at = Date.parse("2026-01-02T14:02:11Z");
    const memory = new MemoryFileSystem({ clock: () => at });
    await leaveLock(memory, "/s.jsonl", { pid: 4242, host: "here", start: "500", since: at, token: "dead" });
    // The second rename of the lock waits until a new holder has the lock: the slow breaker's
    // look at the old lock is then out of date by the time it acts.
    let renames = 0;
    const fs: FileSystem = Object.assign(Object.create(memory), {
      rename: async (from: string, to: string) => {
        if (++renames === 2) {
          for (let i = 0; i < 200 && (await memory.stat("/s.jsonl.lock/holder.json")) === null; i++) await delay(1);
        }
        return memory.rename(from, to);
      },
    });
    for (const name of ["read", "stat", "list", "append", "writeAtomic", "remove", "mkdir"] as const) {
      (fs as unknown as Record<string, unknown>)[name] = (memory[name] as (...args: unknown[]) => unknown).bind(memory);
    }
    let inside = 0;
    let most = 0;
    const section = async () => {
      most = Math.max(most, ++inside);
      await delay(20);
      inside--;
    };
    const probe = fakeProbe({ 100: "1" });
    const waiter = () => withFileLock(fs, "/s.jsonl", section, { probe, clock: () => at, sleep: () => delay(1) });
    await Promise.all([waiter(), waiter(), waiter()]);
    assert.equal(most, 1, "two waiters held the lock at once");
    assert.deepEqual(await memory.list("/"), []);
  });
});

describe("withFileLock({sweepFolder})", () => {
  it("withFileLock({sweepFolder}) clears the dead holders' locks and temp files of other files in the folder, and keeps live ones", async () => {
    const at = Date.parse("2026-01-02T14:02:11Z");
    const fs = new MemoryFileSystem({ clock: () => at });
    await fs.mkdir("/d");
    await leaveLock(fs, "/d/killed-fork.jsonl", { pid: 4242, host: "here", start: "500", since: at, token: "dead" });
    await fs.append("/d/.killed-fork.jsonl.0123456789ab.tmp", new Uint8Array([1]));
    await leaveLock(fs, "/d/.killed-clone.jsonl.lock.a1b2c3d4e5f6", { pid: 4343, host: "here", start: "500", since: at, token: "dead" });
    await fs.rename("/d/.killed-clone.jsonl.lock.a1b2c3d4e5f6.lock", "/d/.killed-clone.jsonl.lock.a1b2c3d4e5f6.tmp"); // killed while taking its lock
    await fs.append("/d/.killed-clone.jsonl.a1b2c3d4e5f6.tmp", new Uint8Array([1]));
    await leaveLock(fs, "/d/busy.jsonl", { pid: 77, host: "here", start: "9", since: at, token: "live" });
    await fs.append("/d/.busy.jsonl.0123456789ab.tmp", new Uint8Array([1]));
    const probe = fakeProbe({ 100: "1", 77: "9" });
    await withFileLock(fs, "/d/new.jsonl", () => fs.append("/d/new.jsonl", new Uint8Array([1])), { probe, clock: () => at, sweepFolder: true });
    assert.deepEqual((await fs.list("/d")).map((entry) => entry.name).sort(), [".busy.jsonl.0123456789ab.tmp", "busy.jsonl.lock", "new.jsonl"]);
  });
});

describe("withFileLock() and the remains of a killed release", () => {
  it("withFileLock() removes an emptied lock folder set aside by a killed release", async () => {
    const fs = new MemoryFileSystem();
    await fs.mkdir("/.s.jsonl.lock.a1b2c3d4e5f6.tmp");
    await withFileLock(fs, "/s.jsonl", async () => {}, { probe: fakeProbe({ 100: "1" }) });
    assert.deepEqual(await fs.list("/"), []);
  });
});

describe("takeLock() steps", () => {
  it("takeLock() tries again when its rename meets a lock that is gone again by the next look", () => {
    // Another process took the lock between our look and our rename, and released it before we
    // looked again: the rename's NotEmpty says a lock was there, which is no error of ours.
    let renames = 0;
    const disk: SyncFileSystem = {
      read: (path) => {
        throw new FsError("NotFound", path, "none");
      },
      stat: () => null,
      list: () => [],
      append: () => {},
      writeAtomic: () => {},
      rename: (from, to) => {
        if (++renames === 1) throw new FsError("NotEmpty", from, `Cannot rename "${from}" to "${to}": the directory is not empty`);
      },
      remove: () => {},
      mkdir: () => {},
      link: () => {},
      realPath: (path) => path,
    };
    const held = runStepsSync(disk, takeLock("/s.jsonl"), { sleep: () => {} });
    assert.equal(held.lockPath, "/s.jsonl.lock");
    assert.equal(renames, 2);
  });
});
