/**
 * Packed usage rows: every number comes back with the very bits it had (the short forms are
 * only taken where they give it back), a damaged string is refused, and the usual rows pack far
 * smaller than their JSON.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { packRows, unpackRows } from "../../../src/core/digest/usage-pack.ts";
import { decodeUsage, emptyUsageState, encodeUsage, pushRow, type UsageRow, UsageScratch } from "../../../src/core/digest/usage-state.ts";
import { mulberry32 } from "../../../scripts/seeded-random.ts";

/** The bits of each number, so that -0, 0 and NaNs are told apart. */
function bits(numbers: Float64Array): string[] {
  const view = new DataView(numbers.buffer, numbers.byteOffset, numbers.byteLength);
  return Array.from({ length: numbers.length }, (_, i) => view.getBigUint64(i * 8).toString(16));
}

/** 13 numbers a row: source, key, id, time, four tokens, five costs (as usage-state.ts keeps them). */
function rowsOf(rows: number[][]): Float64Array {
  return Float64Array.from(rows.flat());
}

/** A row as pi writes one: tokens, costs at a model's prices per million, the total their sum. */
function usualRow(next: () => number, time: number): number[] {
  const tokens = [Math.floor(next() * 200_000), Math.floor(next() * 4_000), next() < 0.5 ? 0 : Math.floor(next() * 100_000), next() < 0.7 ? 0 : Math.floor(next() * 20_000)];
  const prices = [3, 15, 0.3, 3.75];
  const costs = tokens.map((n, i) => (prices[i] / 1_000_000) * n);
  return [Math.floor(next() * 2), Math.floor(next() * 3), Math.floor(next() * 0x1_0000_0000), time, ...tokens, ...costs, costs[0] + costs[1] + costs[2] + costs[3]];
}

test("packRows() gives back every number of usual rows exactly, in far fewer characters than JSON", () => {
  const next = mulberry32(22);
  const rows: number[][] = [];
  let time = Date.parse("2025-12-16T00:00:00.000Z");
  for (let i = 0; i < 5_000; i++) rows.push(usualRow(next, time += Math.floor(next() * 60_000)));
  const numbers = rowsOf(rows);
  const packed = packRows(numbers);
  assert.deepEqual(bits(unpackRows(packed, rows.length)), bits(numbers));
  assert.match(packed, /^[A-Za-z0-9_-]*$/);
  assert.ok(packed.length * 2 < JSON.stringify(Array.from(numbers)).length, `${packed.length} characters`);
});

test("packRows() gives back numbers that have no short form with their very bits", () => {
  const awkward = [
    -0, 0, NaN, Infinity, -Infinity, 2 ** 52, 2 ** 52 + 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 1e300, 5e-324, 1e-7, 1.5e-22, 1e-23,
    0.1 + 0.2, 0.43532400000000004, -0.403944, -7, 1 / 3, Number.MAX_VALUE, Number.MIN_SAFE_INTEGER, 123456789.123456789,
  ];
  const rows: number[][] = [];
  for (const [i, x] of awkward.entries()) {
    // The awkward number in every place a row has, and as a time far from the one before.
    rows.push([i % 5, 0, i % 3 === 0 ? -1 : i, x, x, x, x, x, x, x, x, x, x]);
    rows.push([i % 5, 1, 7, 8.64e15, 0, 0, 0, 0, -0, 0, 0, 0, 0]);
    rows.push([i % 5, 1, 7, -8.64e15, 1, 2, 3, 4, 0.5, 0.25, -0, 0, 0.75]);
  }
  const numbers = rowsOf(rows);
  assert.deepEqual(bits(unpackRows(packRows(numbers), rows.length)), bits(numbers));
});

test("unpackRows() refuses a string packRows did not make for that many rows", () => {
  const packed = packRows(rowsOf([[0, 0, 5, 1_700_000_000_000, 10, 20, 0, 0, 0.03, 0.3, 0, 0, 0.33]]));
  assert.equal(unpackRows(packed, 1).length, 13);
  for (const [text, rows] of [[packed, 2], [packed.slice(0, -1), 1], [packed + "A", 1], [`${packed.slice(0, 3)}=${packed.slice(4)}`, 1], [`${packed.slice(0, -1)}\u20ac`, 1], [`${packed.slice(0, -1)}\u00e9`, 1], [packed, 0.5], [packed, -1]] as const) {
    assert.throws(() => unpackRows(text, rows), SyntaxError, `${text} as ${rows} rows`);
  }
  assert.deepEqual(unpackRows("", 0), new Float64Array(0));
});

test("decodeUsage() reads back what encodeUsage() wrote, odd rows too, and refuses a row naming no key", () => {
  const state = emptyUsageState();
  const rows: UsageRow[] = [
    ["assistant", "a1b2c3d4", "2025-12-16T00:00:00.000Z", "anthropic/claude", 100, 20, 0, 0, 0.0003, 0.0003, 0, 0, 0.0006],
    ["toolResult", null, "2025-12-16T00:00:01Z", "Tools/summaries", 1, 2, 3, 4, 0.1, 0.2, 0.3, 0.4, 7],
    ["usage", "not-hex", null, "openai/gpt", 5, 6, 7, 8, 0, 0, 0, 0, 0],
  ];
  for (const row of rows) pushRow(state, row);
  const stored = JSON.parse(JSON.stringify(encodeUsage(state)));
  const back = decodeUsage(stored);
  assert.deepEqual(back.keys, state.keys);
  assert.deepEqual(back.odd, state.odd);
  assert.deepEqual(bits(back.numbers), bits(state.numbers));
  const wrongKey = { ...stored, keys: stored.keys.slice(0, 1) };
  assert.throws(() => decodeUsage(wrongKey), /names no cost key/);
  assert.throws(() => decodeUsage({ ...stored, odd: [] }), /odd rows/);
  assert.throws(() => decodeUsage({ keys: [], numbers: [], odd: [] }), /wrong shape/);
});

test("decodeUsage() with a UsageScratch puts each state's numbers in the one array it keeps, the same numbers as without", () => {
  const next = mulberry32(7);
  const states = [3, 40, 1, 0, 200].map((count) => {
    const state = emptyUsageState();
    let time = Date.parse("2025-12-16T00:00:00.000Z");
    for (let i = 0; i < count; i++) {
      const [source, key, id, at, ...rest] = usualRow(next, time += 1000);
      pushRow(state, [(["assistant", "toolResult"] as const)[source], id.toString(16).padStart(8, "0"), new Date(at).toISOString(), `model/${key}`, ...rest] as UsageRow);
    }
    return JSON.parse(JSON.stringify(encodeUsage(state)));
  });
  const scratch = new UsageScratch();
  const buffers = new Set<ArrayBufferLike>();
  for (const stored of states) {
    const alone = decodeUsage(stored);
    const shared = decodeUsage(stored, scratch);
    assert.deepEqual(bits(shared.numbers), bits(alone.numbers));
    assert.deepEqual([shared.keys, shared.odd], [alone.keys, alone.odd]);
    buffers.add(shared.numbers.buffer);
  }
  // 1,024 numbers at first, grown once for the 200 rows (2,600 numbers).
  assert.equal(buffers.size, 2);
});

test("UsageScratch.release() gives back a room grown for a giant state and keeps an ordinary one", () => {
  const scratch = new UsageScratch();
  const ordinary = scratch.take(500 * 13).buffer;
  scratch.release();
  assert.equal(scratch.take(100).buffer, ordinary);
  const giant = scratch.take(60_000 * 13).buffer;
  scratch.release();
  const after = scratch.take(100).buffer;
  assert.notEqual(after, giant);
  assert.equal(after.byteLength, 1024 * 8);
});
