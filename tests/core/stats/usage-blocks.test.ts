/**
 * Usage blocks: 5-hour windows from the first activity's hour, copies counted once, and the
 * open block's burn rate and projection.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { usageDigest } from "../../../src/core/digest/usage-digest.ts";
import { pushRow, type UsageRow } from "../../../src/core/digest/usage-state.ts";
import type { UsageSession } from "../../../src/core/stats/attribution.ts";
import { usageBlocks } from "../../../src/core/stats/usage-blocks.ts";

/** A row of `tokens` input tokens costing `cost` at `ts`. */
function row(id: string, ts: string, tokens: number, cost: number, key = "anthropic/claude"): UsageRow {
  return ["assistant", id, ts, key, tokens, 0, 0, 0, cost, 0, 0, 0, cost];
}

function session(path: string, rows: UsageRow[], extra: Partial<UsageSession> = {}): UsageSession {
  const usage = usageDigest.initial();
  for (const r of rows) pushRow(usage, r);
  return { path, id: path.slice(1), cwd: "/p", created: "2025-06-01T00:00:00Z", usage, ...extra };
}

const at = (iso: string) => Date.parse(iso);

test("usageBlocks() starts a block at the hour of the first activity after the last block ended", () => {
  const s = session("/s", [
    row("a", "2025-06-01T10:15:00Z", 100, 1),
    row("b", "2025-06-01T14:59:00Z", 100, 1),
    row("c", "2025-06-01T15:00:00Z", 100, 1),
    row("d", "2025-06-02T08:40:00Z", 100, 1, "google/gemini"),
  ]);
  const blocks = usageBlocks([s], { now: at("2025-06-03T00:00:00Z") });
  assert.deepEqual(blocks.map((b) => [b.start, b.end, b.entries, b.totalTokens, b.active]), [
    ["2025-06-01T10:00:00.000Z", "2025-06-01T15:00:00.000Z", 2, 200, false],
    ["2025-06-01T15:00:00.000Z", "2025-06-01T20:00:00.000Z", 1, 100, false],
    ["2025-06-02T08:00:00.000Z", "2025-06-02T13:00:00.000Z", 1, 100, false],
  ]);
  assert.deepEqual(blocks[2].models, ["google/gemini"]);
  assert.equal(blocks[0].burnRate, null);
  assert.equal(blocks[0].projection, null);
});

test("usageBlocks() counts an entry copied into a fork once", () => {
  const shared = row("a", "2025-06-01T10:15:00Z", 100, 1);
  const parent = session("/parent", [shared]);
  const fork = session("/fork", [shared, row("b", "2025-06-01T11:00:00Z", 50, 0.5)], { parentSession: "/parent" });
  const [block] = usageBlocks([fork, parent], { now: at("2025-06-03T00:00:00Z") });
  assert.deepEqual([block.entries, block.totalTokens, block.cost.total, block.sessions], [2, 150, 1.5, 2]);
});

test("usageBlocks() gives the open block a burn rate and a projection to its end", () => {
  // 600 tokens and $0.3 over 30 minutes: 20 tokens/min, $0.6/h; 3h 30m (210 min) left at 16:30.
  const s = session("/s", [row("a", "2025-06-01T15:00:00Z", 300, 0.1), row("b", "2025-06-01T15:30:00Z", 300, 0.2)]);
  const [block] = usageBlocks([s], { now: at("2025-06-01T16:30:00Z") });
  assert.equal(block.active, true);
  assert.deepEqual(block.burnRate, { tokensPerMinute: 20, costPerHour: 0.6 });
  assert.deepEqual(block.projection, { totalTokens: 600 + 20 * 210, cost: 0.3 + 0.6 * 3.5 });
  assert.equal(block.cost.total, 0.3);
});

test("usageBlocks() has no burn rate for an open block with one moment of activity, and keeps only rows since a time", () => {
  const s = session("/s", [row("a", "2025-06-01T09:00:00Z", 1, 0), row("b", "2025-06-01T15:10:00Z", 300, 0.1)]);
  const blocks = usageBlocks([s], { now: at("2025-06-01T16:00:00Z"), since: (ms) => ms >= at("2025-06-01T12:00:00Z") });
  assert.equal(blocks.length, 1);
  assert.equal(blocks[0].active, true);
  assert.equal(blocks[0].burnRate, null);
});
