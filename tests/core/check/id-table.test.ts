/**
 * `IdTable` numbers id values as a `Map` would tell them apart, and gives each back as it was.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { IdTable } from "../../../src/core/check/id-table.ts";

test("IdTable keys strings and other values apart, as a Map would", () => {
  const ids = new IdTable();
  const values: unknown[] = ["a", "5", 5, null, undefined, true, "", "null"];
  const keys = values.map((v) => ids.key(v));
  assert.deepEqual(keys, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(values.map((v) => ids.key(v)), keys);
  assert.deepEqual(values.map((v) => ids.find(v)), keys);
  assert.deepEqual(keys.map((k) => ids.value(k)), values);
  assert.deepEqual(keys.map((k) => ids.isString(k)), [true, true, false, false, false, false, true, true]);
  assert.equal(ids.find("b"), -1);
  assert.equal(ids.find(6), -1);
});

test("IdTable gives each object a key of its own that nothing finds", () => {
  const ids = new IdTable();
  const object = { id: "a" };
  const first = ids.key(object);
  assert.notEqual(ids.key(object), first);
  assert.equal(ids.find(object), -1);
  assert.equal(ids.find([]), -1);
  assert.equal(ids.value(first), object);
  assert.equal(ids.is(first, "[object Object]"), false);
});

test("IdTable holds 200,000 ids, long and non-ASCII ones among them, through its growth", () => {
  const ids = new IdTable();
  const long = "é🚀".repeat(40_000); // longer than a block of code units
  const made = (i: number) => (i === 777 ? long : i % 1000 === 3 ? `naïve-${i}-日本` : i.toString(16).padStart(8, "0"));
  for (let i = 0; i < 200_000; i++) assert.equal(ids.key(made(i)), i);
  assert.equal(ids.size, 200_000);
  for (let i = 0; i < 200_000; i += 997) {
    assert.equal(ids.find(made(i)), i);
    assert.ok(ids.is(i, made(i)));
  }
  assert.equal(ids.value(777), long);
  assert.equal(ids.value(3003), "naïve-3003-日本");
  assert.equal(ids.find("0000000g"), -1);
});
