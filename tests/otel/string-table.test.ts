/**
 * The typed-array string map behind a long session's index: exact keys (code unit by code
 * unit), the last value set wins, keys read back as written, and the same after growing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { keyAt, keyOf, StringTableBuilder, valueOf } from "../../src/otel/string-table.ts";

test("StringTableBuilder keeps every key's last value through growth", () => {
  const builder = new StringTableBuilder();
  const keys = Array.from({ length: 5000 }, (_, i) => (i * 2654435761 >>> 0).toString(16).padStart(8, "0"));
  keys.forEach((key, i) => builder.set(key, i));
  builder.set(keys[7], 99999);
  const table = builder.done();
  assert.equal(table.keys, 5000);
  keys.forEach((key, i) => assert.equal(valueOf(table, key), i === 7 ? 99999 : i));
  assert.equal(valueOf(table, "not-there"), undefined);
  assert.equal(keyOf(table, "not-there"), -1);
});

test("StringTableBuilder tells apart keys that differ in one code unit, length or case", () => {
  const builder = new StringTableBuilder();
  const keys = ["", "a", "A", "ab", "ba", "toolu_01ABC", "toolu_01ABD", "é", "e\u0301", "😀", "\u0000"];
  keys.forEach((key, i) => assert.equal(builder.set(key, i), i));
  const table = builder.done();
  keys.forEach((key, i) => {
    assert.equal(valueOf(table, key), i);
    assert.equal(keyAt(table, keyOf(table, key)), key);
  });
  assert.equal(valueOf(table, "toolu_01ABE"), undefined);
});

test("keyAt() reads back a key longer than one slice of code units", () => {
  const builder = new StringTableBuilder();
  const long = "x".repeat(10000) + "ü" + "y".repeat(5000);
  builder.set("short", 1);
  builder.set(long, 2);
  const table = builder.done();
  assert.equal(keyAt(table, 1), long);
  assert.equal(valueOf(table, long), 2);
  assert.equal(valueOf(table, long.slice(0, -1)), undefined);
});

test("a finished StringTable survives structuredClone (a worker's handover)", () => {
  const builder = new StringTableBuilder();
  builder.set("a1b2c3d4", 3);
  const table = structuredClone(builder.done());
  assert.equal(valueOf(table, "a1b2c3d4"), 3);
  assert.equal(keyAt(table, 0), "a1b2c3d4");
});
