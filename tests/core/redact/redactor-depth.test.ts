/**
 * `Redactor.value()` over values of any depth: no recursion, the same copy as before.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Redactor } from "../../../src/core/redact/mod.ts";

test("Redactor.value() masks a value nested 100k levels deep without overflowing the stack", () => {
  const redactor = new Redactor();
  let value: unknown = "ghp_" + "a".repeat(36);
  for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { k: value };
  let out = redactor.value(value);
  for (let i = 100_000 - 1; i >= 0; i--) out = i % 2 === 0 ? (out as unknown[])[0] : (out as { k: unknown }).k;
  assert.doesNotMatch(String(out), /a{36}/);
  assert.equal(redactor.total, 1);
});

test("Redactor.value() keeps key order, array holes as values, and image data as is", () => {
  const redactor = new Redactor();
  const input = { b: 1, a: ["x", null, { type: "image", data: "ghp_" + "b".repeat(36), mimeType: "image/png" }], c: { d: true } };
  const out = redactor.value(input);
  assert.deepEqual(out, input);
  assert.deepEqual(Object.keys(out), ["b", "a", "c"]);
  assert.deepEqual(Object.keys(out.a[2] as object), ["type", "data", "mimeType"]);
});
