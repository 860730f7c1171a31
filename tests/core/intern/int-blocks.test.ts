/**
 * `IntBlocks` and `IntList` keep what is pushed across their blocks, and still grow after being
 * cut to what they hold.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { intAt, intBlocks, IntList, packInts, pushInt, setInt } from "../../../src/core/intern/mod.ts";

test("IntList keeps its values past its first blocks", () => {
  const list = new IntList();
  for (let i = 0; i < 100_000; i++) list.push(i * 3 - 7);
  list.set(50_000, -1);
  assert.equal(list.length, 100_000);
  assert.equal(list.at(0), -7);
  assert.equal(list.at(16_384), 16_384 * 3 - 7);
  assert.equal(list.at(50_000), -1);
  assert.equal(list.at(99_999), 99_999 * 3 - 7);
});

test("packInts() cuts the last block to its length, and the list grows on after it", () => {
  for (const count of [0, 1, 100, 16_384, 16_385, 40_000]) {
    const list = intBlocks();
    for (let i = 0; i < count; i++) pushInt(list, i);
    packInts(list);
    assert.equal(list.blocks.reduce((sum, block) => sum + block.length, 0), count, `${count} ints`);
    for (let i = count; i < count + 20_000; i++) pushInt(list, i);
    setInt(list, count, -5);
    assert.equal(list.length, count + 20_000);
    for (let i = 0; i < list.length; i += 7) assert.equal(intAt(list, i), i === count ? -5 : i);
    assert.equal(intAt(list, count + 19_999), count + 19_999);
  }
});
