/** Thousands separators: ours against `toLocaleString("en-US")`, which they stand in for. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { groupDigits } from "../../src/render/numbers.ts";

test("whole numbers are grouped as toLocaleString('en-US') groups them", () => {
  const values = [0, -0, 1, 12, 123, 999, 1000, 1001, 9999, 12345, 123456, 1234567, 7526331, 1e9, 2 ** 53 - 1, -(2 ** 53 - 1), -5, -1000, -123456789];
  // Every length from 1 to 16 digits, both signs, spread over the digits.
  for (let i = 0; i < 2000; i++) values.push((i % 3 === 0 ? -1 : 1) * Math.floor(((i * 7919) % 10007) / 10007 * 10 ** (1 + (i % 16))));
  for (const n of values) assert.equal(groupDigits(n), n.toLocaleString("en-US"), String(n));
});

test("other numbers are written by toLocaleString('en-US') itself", () => {
  for (const n of [1234.5678, -0.5, 2 ** 60, Number.NaN, Infinity]) assert.equal(groupDigits(n), n.toLocaleString("en-US"), String(n));
});
