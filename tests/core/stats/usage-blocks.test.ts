/**
 * Usage blocks: 5-hour windows from the first activity's hour, copies counted once, and the
 * open block's burn rate and projection.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { usageDigest } from "../../../src/core/digest/usage-digest.ts";
import { pushRow, rowCount, rowKey, rowTime, type UsageRow, usageRow } from "../../../src/core/digest/usage-state.ts";
import { roundCosts } from "../../../src/core/info/round-cost.ts";
import { attributeUsage, attributionOrder, type UsageSession } from "../../../src/core/stats/attribution.ts";
import { ExactTotals } from "../../../src/core/stats/exact-totals.ts";
import { BlocksAggregator, usageBlocks } from "../../../src/core/stats/usage-blocks.ts";
import { mulberry32 } from "../../../scripts/seeded-random.ts";

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

/**
 * The blocks as every row held and sorted by time cuts them (the way `usageBlocks` worked before it
 * took sessions one at a time): the oracle of the test below.
 */
function blocksOfSortedRows(sessions: UsageSession[], options: { now: number; since?: (ms: number) => boolean; inScope?: (s: UsageSession) => boolean }) {
  const HOUR = 3600e3;
  const rows: { ms: number; session: UsageSession; i: number }[] = [];
  attributeUsage(sessions, (session, i) => {
    if (options.inScope && !options.inScope(session)) return;
    const ms = rowTime(session.usage, i);
    if (!Number.isNaN(ms) && (!options.since || options.since(ms))) rows.push({ ms, session, i });
  });
  rows.sort((a, b) => a.ms - b.ms);
  const blocks: { startMs: number; firstMs: number; lastMs: number; totals: ExactTotals; entries: number; sessions: Set<string>; models: string[] }[] = [];
  for (const { ms, session, i } of rows) {
    let block = blocks.at(-1);
    if (!block || ms >= block.startMs + 5 * HOUR) blocks.push(block = { startMs: Math.floor(ms / HOUR) * HOUR, firstMs: ms, lastMs: ms, totals: new ExactTotals(), entries: 0, sessions: new Set(), models: [] });
    block.lastMs = ms;
    block.entries++;
    block.sessions.add(session.path);
    block.totals.addRow(session.usage, i);
    if (!block.models.includes(rowKey(session.usage, i))) block.models.push(rowKey(session.usage, i));
  }
  return blocks.map((b) => ({
    start: new Date(b.startMs).toISOString(),
    firstActivity: new Date(b.firstMs).toISOString(),
    lastActivity: new Date(b.lastMs).toISOString(),
    entries: b.entries,
    sessions: b.sessions.size,
    models: b.models,
    ...roundCosts(b.totals.totals()),
  }));
}

test("usageBlocks() cuts random sessions, forks and clones as every row held and sorted by time would", () => {
  const next = mulberry32(20261203);
  const r = { next, int: (n: number) => Math.floor(next() * n), pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
  const keys = ["anthropic/claude", "openai/gpt", "google/gemini", "x/y"];
  const t0 = at("2025-06-01T00:00:00Z");
  for (let round = 0; round < 40; round++) {
    const sessions: UsageSession[] = [];
    for (let s = 0; s < 1 + r.int(12); s++) {
      const rows: UsageRow[] = [];
      // Sometimes a copy of an earlier session's rows first (a fork or clone), then rows of its own.
      const from = sessions.length > 0 && r.next() < 0.4 ? r.pick(sessions) : undefined;
      if (from) for (let i = 0; i < rowCount(from.usage); i++) if (r.next() < 0.8) rows.push(usageRow(from.usage, i));
      let ms = t0 + r.int(24) * 3600e3 + r.int(3600e3);
      for (let k = 0; k < r.int(15); k++) {
        // Mostly minutes apart, now and then hours, and now and then the same millisecond.
        ms += r.next() < 0.1 ? r.int(9) * 3600e3 : r.next() < 0.1 ? 0 : r.int(40 * 60e3);
        rows.push(row(`${round}-${s}-${k}`, new Date(ms).toISOString(), 1 + r.int(5000), r.int(1000) / 997, r.pick(keys)));
      }
      sessions.push(session(`/s${s}`, rows, { created: new Date(t0 + s).toISOString(), ...(from && r.next() < 0.7 ? { parentSession: from.path } : {}) }));
    }
    const now = t0 + r.int(80) * 3600e3;
    const since = r.next() < 0.3 ? ((cut: number) => (ms: number) => ms >= cut)(t0 + r.int(48) * 3600e3) : undefined;
    const inScope = r.next() < 0.3 ? (s: UsageSession) => s.path !== "/s0" : undefined;
    const got = usageBlocks(sessions, { now, since, inScope }).map(({ start, firstActivity, lastActivity, entries, sessions, models, input, output, cacheRead, cacheWrite, totalTokens, cost }) => ({ start, firstActivity, lastActivity, entries, sessions, models, input, output, cacheRead, cacheWrite, totalTokens, cost }));
    assert.deepEqual(got, blocksOfSortedRows(sessions, { now, since, inScope }), `round ${round}`);
  }
});

test("usageBlocks() lists a block's models by their first row's time, rows of the same time in the order they came", () => {
  // Session a comes first (older header); b's rows of 10:10 come later, though earlier in time.
  const a = session("/a", [row("a1", "2025-06-01T10:30:00Z", 1, 0, "m/one")], { created: "2025-06-01T00:00:00Z" });
  const b = session("/b", [row("b1", "2025-06-01T10:10:00Z", 1, 0, "m/two"), row("b2", "2025-06-01T10:10:00Z", 1, 0, "m/one")], { created: "2025-06-01T00:00:01Z" });
  const [block] = usageBlocks([b, a], { now: at("2025-06-03T00:00:00Z") });
  assert.deepEqual(block.models, ["m/two", "m/one"]);
  assert.equal(block.firstActivity, "2025-06-01T10:10:00.000Z");
});

test("BlocksAggregator.restored() of saved hours, through JSON, gives the blocks of the aggregator saved at any time", () => {
  const next = mulberry32(20261204);
  const int = (n: number) => Math.floor(next() * n);
  const keys = ["anthropic/claude", "openai/gpt", "google/gemini"];
  const t0 = at("2025-06-01T00:00:00Z");
  for (let round = 0; round < 20; round++) {
    const sessions: UsageSession[] = [];
    for (let s = 0; s < 1 + int(8); s++) {
      const rows: UsageRow[] = [];
      let ms = t0 + int(24) * 3600e3;
      // Rows of the same millisecond now and then: the models' order then comes from the order rows came in.
      for (let k = 0; k < 1 + int(12); k++) rows.push(row(`${round}-${s}-${k}`, new Date(ms += next() < 0.2 ? 0 : int(90 * 60e3)).toISOString(), 1 + int(5000), int(1000) / 997, keys[int(keys.length)]));
      sessions.push(session(`/s${s}`, rows, { created: new Date(t0 + s).toISOString() }));
    }
    const aggregator = new BlocksAggregator({ now: t0 });
    for (const s of attributionOrder(sessions)) aggregator.add(s);
    const saved = JSON.parse(JSON.stringify(aggregator.save()));
    for (const now of [t0, t0 + int(40) * 3600e3 + int(3600e3), t0 + 100 * 3600e3]) {
      assert.deepEqual(BlocksAggregator.restored({ now }, saved).blocks(), usageBlocks(sessions, { now }), `round ${round}`);
    }
  }
  // A model's first row replaced by an earlier one that came later: ties by time go by the order rows came.
  const a = session("/a", [row("a1", "2025-06-01T10:10:00Z", 1, 0, "m/one")], { created: "2025-06-01T00:00:00Z" });
  const b = session("/b", [row("b1", "2025-06-01T10:05:00Z", 1, 0, "m/two"), row("b2", "2025-06-01T10:05:00Z", 1, 0, "m/one")], { created: "2025-06-01T00:00:01Z" });
  const tied = new BlocksAggregator({ now: t0 });
  for (const s of attributionOrder([a, b])) tied.add(s);
  const [block] = BlocksAggregator.restored({ now: t0 }, JSON.parse(JSON.stringify(tied.save()))).blocks();
  assert.deepEqual(block.models, ["m/two", "m/one"]);
  assert.deepEqual(block.models, usageBlocks([a, b], { now: t0 })[0].models);
  for (const bad of [null, {}, [[1]], [[0, 0, 0, [[], []], 1, ["/s"], [["m", "x", 0]]]], [[0, 0, 0, "totals", 1, [], []]]]) {
    assert.throws(() => BlocksAggregator.restored({ now: t0 }, bad), TypeError, JSON.stringify(bad));
  }
});
