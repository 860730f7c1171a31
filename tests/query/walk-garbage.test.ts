import assert from "node:assert/strict";
import { test } from "node:test";
import { walkCollector } from "../../src/query/walk-garbage.ts";

test("walkCollector() collects at the first session a walk hands on and at every nth after", () => {
  const at: number[] = [];
  let session = 0;
  const collect = walkCollector(3, () => at.push(session));
  for (session = 1; session <= 8; session++) collect();
  assert.deepEqual(at, [1, 4, 7]);
});
