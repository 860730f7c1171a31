/**
 * The server's answer cache: one computation per key (shared while pending), forgotten on
 * failure and on clear, the least recently used dropped beyond a count or a total weight.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { AnswerCache } from "../../src/serve/answer-cache.ts";

test("AnswerCache.get() computes once per key, shares a pending answer, and forgets a failed one", async () => {
  const cache = new AnswerCache();
  let runs = 0;
  const compute = async () => ++runs;
  const [a, b] = await Promise.all([cache.get("k", compute), cache.get("k", compute)]);
  assert.deepEqual([a, b, runs], [1, 1, 1]);
  await assert.rejects(cache.get("bad", () => Promise.reject(new Error("no"))));
  await Promise.resolve();
  assert.equal(await cache.get("bad", async () => "now"), "now");
  cache.clear();
  assert.equal(await cache.get("k", compute), 2);
});

test("AnswerCache drops the least recently used answers beyond its count and its total weight", async () => {
  const cache = new AnswerCache({ count: 2, weight: 100 });
  const weigh = (s: string) => s.length;
  await cache.get("a", async () => "a".repeat(40), weigh);
  await cache.get("b", async () => "b".repeat(40), weigh);
  await cache.get("a", async () => "recomputed", weigh); // a is the newest now
  await cache.get("c", async () => "c".repeat(10), weigh); // count 2: b goes
  assert.equal(await cache.get("b", async () => "b again", weigh), "b again");
  assert.equal(cache.size, 2);
  // 40 + 10 + 7 kept, then 60 more: over 100, the oldest go until it fits.
  await cache.get("d", async () => "d".repeat(60), weigh);
  assert.ok(cache.weight <= 100, `weight ${cache.weight}`);
  assert.equal(await cache.get("d", async () => "gone", weigh), "d".repeat(60), "the newest stays");
  // One answer heavier than the whole budget is given but not kept.
  assert.equal(await cache.get("huge", async () => "h".repeat(500), weigh), "h".repeat(500));
  assert.equal(await cache.get("huge", async () => "again", weigh), "again");
});
