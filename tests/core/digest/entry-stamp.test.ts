/**
 * Entry stamps: the byte readers never disagree with the string readers (they may only pass a
 * string on to them), and every number reads back as the string it came from.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { exactTime, exactTimeAt, exactTimeText, hexId, hexIdAt, hexIdText } from "../../../src/core/digest/entry-stamp.ts";
import { mulberry32 } from "../../../scripts/seeded-random.ts";

const encoder = new TextEncoder();

/** The JSON string of `text` inside a line, and where it is. */
function inLine(text: string): [Uint8Array, number, number] {
  const json = JSON.stringify(text);
  const line = encoder.encode(`{"x":${json},"y":1}`);
  const start = 5;
  return [line, start, start + encoder.encode(json).length];
}

const TIMES = [
  "2026-12-01T07:36:17.599Z", "1970-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "2023-02-29T12:00:00.000Z",
  "2025-04-31T12:00:00.000Z", "2025-06-01T24:00:00.000Z", "2025-06-01T12:60:00.000Z", "2025-06-01T12:00:60.000Z",
  "2025-13-01T12:00:00.000Z", "2025-00-10T12:00:00.000Z", "2025-06-00T12:00:00.000Z", "0099-06-01T12:00:00.000Z",
  "0100-03-01T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2000-02-29T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
  "2025-06-01T12:00:00Z", "2025-06-01T12:00:00.000+00:00", "2025-06-01 12:00:00.000Z", "2025-06-01T12:00:00.000z",
  "+002025-06-01T12:00:00.000Z", "2025-06-01T12:00:00.0000Z", "2025-6-01T12:00:00.000Z", "", "not a time",
  "2025-06-01T12:00:00.00\u0030Z", "２025-06-01T12:00:00.000Z",
];

test("exactTimeAt() agrees with exactTime() wherever it answers, and reads back", () => {
  const next = mulberry32(7);
  const times = [...TIMES];
  // Random field values around and beyond their ranges.
  const pad = (n: number, w: number) => String(n).padStart(w, "0");
  for (let i = 0; i < 20_000; i++) {
    const f = (max: number) => Math.floor(next() * max);
    times.push(`${pad(f(10_000), 4)}-${pad(f(14), 2)}-${pad(f(33), 2)}T${pad(f(26), 2)}:${pad(f(62), 2)}:${pad(f(62), 2)}.${pad(f(1000), 3)}Z`);
  }
  let answered = 0;
  for (const time of times) {
    const fast = exactTimeAt(...inLine(time));
    const slow = exactTime(time);
    if (fast !== undefined) {
      answered++;
      assert.equal(fast, slow, time);
      assert.equal(exactTimeText(fast), time);
    }
    if (slow !== undefined) assert.equal(exactTimeText(slow), time);
  }
  // The byte reader must take the common case itself, or it saves nothing.
  assert.equal(exactTimeAt(...inLine("2026-12-01T07:36:17.599Z")), Date.UTC(2026, 11, 1, 7, 36, 17, 599));
  assert.ok(answered > 1000, `only ${answered} answered`);
});

test("hexIdAt() agrees with hexId() wherever it answers, and reads back", () => {
  const ids = ["257b42c8", "00000000", "ffffffff", "FFFFFFFF", "257b42c", "257b42c81", "257b42cg", "", "a1", "\u0032" + "57b42c8", "01a23088-6fbf"];
  const next = mulberry32(11);
  for (let i = 0; i < 5_000; i++) ids.push(Math.floor(next() * 0x1_0000_0000).toString(16).padStart(8, "0"));
  for (const id of ids) {
    const fast = hexIdAt(...inLine(id));
    const slow = hexId(id);
    if (fast !== undefined) assert.equal(fast, slow, id);
    if (slow !== undefined) assert.equal(hexIdText(slow), id);
  }
  assert.equal(hexIdAt(...inLine("257b42c8")), 0x257b42c8);
  assert.equal(hexIdAt(...inLine("FFFFFFFF")), undefined);
  assert.equal(hexId("FFFFFFFF"), undefined);
});
