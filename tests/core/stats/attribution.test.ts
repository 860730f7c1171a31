/**
 * The attribution one session at a time (`UsageAttribution`), as `otel` runs it while it reads:
 * the same copies as `attributeUsage` over all sessions at once, with a table that starts small.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { usageDigest } from "../../../src/core/digest/usage-digest.ts";
import { pushRow, type UsageRow } from "../../../src/core/digest/usage-state.ts";
import { attributeUsage, attributionOrder, SeenEntries, UsageAttribution, type UsageSession } from "../../../src/core/stats/attribution.ts";

function session(path: string, created: string, rows: UsageRow[], parentSession?: string): UsageSession {
  const usage = usageDigest.initial();
  for (const r of rows) pushRow(usage, r);
  return { path, id: path.slice(1), cwd: "/p", created, usage, parentSession };
}

/** Row `i` of a pi-style run: 8 hex digits of id, a whole-second timestamp. */
function row(i: number): UsageRow {
  const id = (0x1000_0000 + i * 7919).toString(16);
  return ["assistant", id, new Date(Date.UTC(2025, 5, 1) + i * 1000).toISOString(), "anthropic/claude", 10, 1, 0, 0, 0, 0, 0, 0, 1];
}

test("UsageAttribution, fed one session at a time well past its first table size, finds the copies attributeUsage finds", () => {
  const parentRows = Array.from({ length: 3000 }, (_, i) => row(i));
  const parent = session("/parent", "2025-06-01T00:00:00Z", parentRows);
  // A fork copying the first 2,000 rows, then 500 of its own; a clone of the fork, plus an odd row twice.
  const forkRows = [...parentRows.slice(0, 2000), ...Array.from({ length: 500 }, (_, i) => row(10_000 + i))];
  const fork = session("/fork", "2025-06-02T00:00:00Z", forkRows, "/parent");
  const odd: UsageRow = ["usage", "odd-id", "yesterday", "x/y", 1, 1, 0, 0, 0, 0, 0, 0, 1];
  const clone = session("/clone", "2025-06-03T00:00:00Z", [...forkRows, odd, odd], "/fork");
  const sessions = [clone, fork, parent];

  const expected: string[] = [];
  attributeUsage(sessions, () => {}, (s, i) => expected.push(`${s.path}:${i}`));
  const found: string[] = [];
  const owned: string[] = [];
  const attribution = new UsageAttribution();
  for (const s of attributionOrder(sessions)) attribution.add(s, (o, i) => owned.push(`${o.path}:${i}`), (c, i) => found.push(`${c.path}:${i}`));

  assert.equal(expected.length, 2000 + 2500 + 1);
  assert.deepEqual(found, expected);
  assert.equal(owned.length, 3000 + 500 + 1);
});

test("SeenEntries doubles its table once three quarters full, not half, and finds every pair after", () => {
  const rows = Array.from({ length: 25 }, (_, i) => row(i));
  const state = session("/s", "2025-06-01T00:00:00Z", rows).usage;
  const seen = new SeenEntries(0);
  const slots: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    assert.equal(seen.add(state, i), true);
    slots.push(seen.slots);
  }
  // 16 slots hold 12 pairs, 32 hold 24.
  assert.deepEqual([slots[11], slots[12], slots[23], slots[24]], [16, 32, 32, 64]);
  for (let i = 0; i < rows.length; i++) assert.equal(seen.add(state, i), false);
});

test("SeenEntries sized for a known number of rows does not grow to hold them", () => {
  const rows = Array.from({ length: 96 }, (_, i) => row(i));
  const state = session("/s", "2025-06-01T00:00:00Z", rows).usage;
  const seen = new SeenEntries(rows.length);
  for (let i = 0; i < rows.length; i++) seen.add(state, i);
  assert.equal(seen.slots, 128);
});
