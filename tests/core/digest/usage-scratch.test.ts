import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageScratch } from "../../../src/core/digest/usage-state.ts";

test("UsageScratch lets a room grown for a giant state go once that state is done, and keeps a small one", () => {
  const scratch = new UsageScratch();
  assert.equal(scratch.take(10).length, 10);
  const small = scratch.room;
  scratch.done();
  assert.equal(scratch.room, small);
  // Doubling stops at the room kept: a state a little over it gets what it needs.
  assert.equal(scratch.take(50_000).length, 50_000);
  scratch.done();
  assert.equal(scratch.room <= 1 << 16, true);
  const giant = scratch.take(876_590);
  assert.equal(giant.length, 876_590);
  assert.equal(scratch.room, 876_590);
  scratch.done();
  assert.equal(scratch.room <= 1 << 16, true);
  assert.equal(scratch.take(100).length, 100);
});
