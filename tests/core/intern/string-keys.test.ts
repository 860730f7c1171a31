/**
 * `StringKeys` numbers strings exactly (code unit by code unit, whatever their hashes), gives
 * each back as it was, through its growth, after `packKeys` and across `structuredClone`.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fnv1a } from "../../../src/core/digest/fnv1a.ts";
import { blankKey, hasString, keyAt, keyFor, keyIs, keyOf, packKeys, type StringKeys, stringKeys } from "../../../src/core/intern/mod.ts";

/** A table of `texts`, each asserted to get the next key. */
function tableOf(texts: readonly string[]): StringKeys {
  const table = stringKeys();
  texts.forEach((text, i) => assert.equal(keyFor(table, text), i, JSON.stringify(text)));
  return table;
}

/** Asserts that every text of `texts` is found as its key and read back as it was. */
function assertHolds(table: StringKeys, texts: readonly string[]): void {
  assert.equal(table.keys, texts.length);
  texts.forEach((text, i) => {
    assert.equal(keyOf(table, text), i, JSON.stringify(text));
    assert.equal(keyFor(table, text), i);
    assert.equal(keyAt(table, i), text);
    assert.ok(keyIs(table, i, text));
  });
}

test("keyFor() numbers strings in the order first seen and finds them again", () => {
  const table = tableOf(["a1b2c3d4", "e5f6a7b8"]);
  assert.equal(keyFor(table, "a1b2c3d4"), 0);
  assert.equal(keyFor(table, "c9d0e1f2"), 2);
  assert.equal(keyOf(table, "a1b2c3d"), -1);
  assert.equal(keyOf(table, "a1b2c3d4 "), -1);
  assertHolds(table, ["a1b2c3d4", "e5f6a7b8", "c9d0e1f2"]);
});

test("stringKeys() tells apart strings whose whole FNV-1a hashes are the same", () => {
  const pairs = [["costarring", "liquid"], ["declinate", "macallums"], ["altarage", "zinke"]];
  for (const [a, b] of pairs) assert.equal(fnv1a(a), fnv1a(b), `${a} and ${b} collide`);
  const texts = pairs.flat();
  const table = tableOf(texts);
  assertHolds(table, texts);
  assert.equal(keyOf(table, "costarrinG"), -1);
});

test("stringKeys() keeps the empty string, non-ASCII text and lone surrogates as they are", () => {
  const texts = ["", "a", "A", "é", "e\u0301", "😀", "\ud83d", "\ude00", "\ude00\ud83d", "日本語", "\u0000", "\uffff", "a\u0000"];
  const table = tableOf(texts);
  assertHolds(table, texts);
  assert.equal(keyOf(table, "\ud83d\ude00\ud83d"), -1);
  assert.equal(keyIs(table, 0, "\u0000"), false);
});

test("stringKeys() holds 300,000 keys, one longer than a block, through its growth", () => {
  const long = "é🚀".repeat(40_000);
  const text = (i: number) => (i === 777 ? long : i === 150_000 ? "" : i % 1000 === 3 ? `naïve-${i}-\ud800` : (i * 2654435761 >>> 0).toString(16).padStart(8, "0"));
  const texts = Array.from({ length: 300_000 }, (_, i) => text(i));
  const table = tableOf(texts);
  assert.ok(table.chars.length > 10, "the code units span many blocks");
  assert.ok(table.slots.length >= 600_000 && table.slots.length <= 1_200_000, "the slots stay between a quarter and half full");
  assertHolds(table, texts);
  assert.equal(keyOf(table, long.slice(1)), -1);
});

test("blankKey() makes a key of the same numbering that no string finds", () => {
  const table = tableOf(["a"]);
  assert.equal(blankKey(table), 1);
  assert.equal(keyFor(table, ""), 2);
  assert.equal(hasString(table, 0), true);
  assert.equal(hasString(table, 1), false);
  assert.equal(keyIs(table, 1, ""), false);
  assert.equal(keyOf(table, ""), 2);
  assert.equal(table.keys, 3);
});

test("packKeys() cuts the blocks to what they hold, and the table grows on after it", () => {
  for (const count of [0, 1, 9000, 20_000]) {
    const texts = Array.from({ length: count + 10_000 }, (_, i) => `id-${i}`);
    const table = tableOf(texts.slice(0, count));
    packKeys(table);
    // Only the last block is cut: a full one may end in a few code units that no string fitted in.
    assert.equal(table.chars.at(-1)!.length, table.used, `${count} keys`);
    assert.ok(table.chars.reduce((sum, block) => sum + block.length, 0) < texts.slice(0, count).join("").length + 10 * table.chars.length);
    texts.slice(count).forEach((text, i) => assert.equal(keyFor(table, text), count + i));
    assertHolds(table, texts);
  }
});

test("a packed StringKeys survives structuredClone (a worker's handover)", () => {
  const texts = Array.from({ length: 5000 }, (_, i) => `toolu_${i}`);
  const table = tableOf(texts);
  packKeys(table);
  const copy = structuredClone(table);
  assertHolds(copy, texts);
  assert.equal(keyFor(copy, "toolu_x"), 5000);
  assert.equal(keyOf(table, "toolu_x"), -1);
});
