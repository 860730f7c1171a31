/**
 * `LockKeeper`: which kept lock a call gets back, and when the keeper gives locks back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KEEP_MS, type KeptLock, LockKeeper } from "../../src/io/lock-keeper.ts";

const held = (name: string) => ({ lockPath: `${name}.lock`, token: "t", holderPath: `${name}.lock/holder.json`, heartbeatMs: 5000 });

function keeper() {
  let now = 0;
  const released: string[] = [];
  const scheduled: (() => void)[] = [];
  const k = new LockKeeper({ release: (kept: KeptLock) => void released.push(kept.real), schedule: (fn) => void scheduled.push(fn), now: () => now });
  return { k, released, scheduled, tick: (ms: number) => now += ms, endBurst: () => scheduled.splice(0).forEach((fn) => fn()) };
}

describe("LockKeeper", () => {
  it("take() hands a kept lock back by the name it was kept under or by the file's real path, once", () => {
    const { k } = keeper();
    const kept = k.taken("/real/s.jsonl", held("/real/s.jsonl"));
    k.keep("/link/s.jsonl", kept);
    assert.equal(k.take("/link/s.jsonl"), kept);
    assert.equal(k.take("/link/s.jsonl"), undefined, "handed over: not kept any more");
    k.keep("/link/s.jsonl", kept);
    assert.equal(k.take("/real/s.jsonl"), kept);
  });

  it("gives every kept lock back when the burst ends, and schedules that once a burst", () => {
    const { k, released, scheduled, endBurst } = keeper();
    k.keep("/a", k.taken("/a", held("/a")));
    k.keep("/b", k.taken("/b", held("/b")));
    k.keep("/a", k.take("/a")!);
    assert.equal(scheduled.length, 1);
    endBurst();
    assert.deepEqual(released.sort(), ["/a", "/b"]);
    assert.equal(k.take("/a"), undefined);
    k.keep("/a", k.taken("/a", held("/a")));
    assert.equal(scheduled.length, 1, "the next burst schedules again");
  });

  it("releases a lock kept for KEEP_MS instead of handing it back (the next call takes it anew)", () => {
    const { k, released, tick } = keeper();
    k.keep("/a", k.taken("/a", held("/a")));
    tick(KEEP_MS - 1);
    k.keep("/a", k.take("/a")!);
    tick(1);
    assert.equal(k.take("/a"), undefined);
    assert.deepEqual(released, ["/a"]);
  });

  it("drop() releases the lock kept on a file, under whatever name, before a rewrite takes it", () => {
    const { k, released } = keeper();
    k.keep("/link", k.taken("/real", held("/real")));
    k.drop("/real");
    assert.deepEqual(released, ["/real"]);
    assert.equal(k.take("/link"), undefined);
  });

  it("held() answers the kept lock and leaves it kept, until it was kept for KEEP_MS (then it releases it)", () => {
    const { k, released, tick } = keeper();
    const kept = k.taken("/real", held("/real"));
    k.keep("/link", kept);
    assert.equal(k.held("/link"), kept);
    assert.equal(k.held("/real"), kept);
    assert.equal(k.take("/link"), kept, "still kept after held()");
    k.keep("/link", kept);
    tick(KEEP_MS);
    assert.equal(k.held("/link"), undefined);
    assert.deepEqual(released, ["/real"]);
    assert.equal(k.take("/link"), undefined);
  });
});
