import assert from "node:assert/strict";
import { test } from "node:test";
import { TEXTS_COLLECT_EVERY, textsCollector, walkCollector } from "../../src/query/walk-garbage.ts";

test("walkCollector() collects at the first session a walk hands on and at every nth after", () => {
  const at: number[] = [];
  let session = 0;
  const collect = walkCollector(3, () => at.push(session));
  for (session = 1; session <= 8; session++) collect();
  assert.deepEqual(at, [1, 4, 7]);
});

test("textsCollector() collects once every TEXTS_COLLECT_EVERY characters of texts handed on, counted again after each", () => {
  const at: number[] = [];
  let session = 0;
  const collect = textsCollector(() => at.push(session));
  const quarter = "x".repeat(TEXTS_COLLECT_EVERY / 4);
  // Four quarters make one collection; a text of twice the interval makes one too.
  for (session = 1; session <= 9; session++) collect(quarter);
  collect(quarter + quarter + quarter + quarter + quarter + quarter + quarter + quarter);
  assert.deepEqual(at, [4, 8, 10]);
});
