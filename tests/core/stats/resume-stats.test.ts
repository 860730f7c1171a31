/**
 * What lets `stats` go on from a kept answer (usage-base.ts): totals summed the same in any
 * order (`ExactTotals`), the entries seen kept with their owners and read back, and an
 * aggregator resumed and extended by the rows sessions gained giving the report a walk over
 * every session gives.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { usageDigest } from "../../../src/core/digest/usage-digest.ts";
import { pushRow, type UsageRow, usageRows } from "../../../src/core/digest/usage-state.ts";
import { aggregateStats, type StatsOptions, StatsAggregator } from "../../../src/core/stats/aggregate-stats.ts";
import { attributionOrder, SeenEntries, type UsageSession } from "../../../src/core/stats/attribution.ts";
import { ExactTotals } from "../../../src/core/stats/exact-totals.ts";
import { mulberry32 as random } from "../../../scripts/seeded-random.ts";

/** A paid row: pi-like costs (tokens times a price per million), its own id and second. */
function row(n: number, next: () => number, model = `anthropic/claude-${n % 3}`): UsageRow {
  const [input, output, cacheRead] = [Math.floor(next() * 200_000), Math.floor(next() * 8000), Math.floor(next() * 150_000)];
  const cost = [input * 3e-6, output * 15e-6, cacheRead * 0.3e-6, 0];
  const id = (0x2000_0000 + n).toString(16);
  const timestamp = new Date(Date.UTC(2026, 10, 1) + n * 3_600_000).toISOString();
  return ["assistant", id, timestamp, model, input, output, cacheRead, 0, cost[0], cost[1], cost[2], 0, cost[0] + cost[1] + cost[2]];
}

function session(path: string, created: string, rows: UsageRow[], parentSession?: string): UsageSession {
  const usage = usageDigest.initial();
  for (const r of rows) pushRow(usage, r);
  return { path, id: path.slice(1), cwd: `/work${path.length % 3}`, created, usage, parentSession };
}

test("ExactTotals sums the same whatever the order rows come in, where plain sums do not", () => {
  const next = random(7);
  const s = session("/a", "2026-11-01T00:00:00Z", Array.from({ length: 3000 }, (_, i) => row(i, next)));
  const orders = [Array.from({ length: 3000 }, (_, i) => i), Array.from({ length: 3000 }, (_, i) => 2999 - i)];
  for (let k = 0; k < 3; k++) orders.push([...orders[0]].sort(() => next() - 0.5));
  const exact = orders.map((order) => {
    const totals = new ExactTotals();
    for (const i of order) totals.addRow(s.usage, i);
    return totals.totals();
  });
  for (const totals of exact) assert.deepEqual(totals, exact[0]);
  // The plain sums of the same costs differ with the order (else this test shows nothing).
  const plain = orders.map((order) => order.reduce((sum, i) => sum + s.usage.numbers[i * 13 + 12], 0));
  assert.ok(new Set(plain).size > 1, "plain sums differ by order");
  // Tokens are whole: their sums are the plain ones; the cost is within a rounding of them.
  assert.equal(exact[0].input, orders[0].reduce((sum, i) => sum + s.usage.numbers[i * 13 + 4], 0));
  assert.ok(Math.abs(exact[0].cost.total - plain[0]) < 1e-9);
  // Read back from what it saved, it goes on the same.
  const saved = new ExactTotals();
  for (let i = 0; i < 1500; i++) saved.addRow(s.usage, i);
  const back = ExactTotals.from(JSON.parse(JSON.stringify(saved.save())));
  for (let i = 1500; i < 3000; i++) back.addRow(s.usage, i);
  assert.deepEqual(back.totals(), exact[0]);
  assert.throws(() => ExactTotals.from([[1, 2], []]), TypeError);
});

test("ExactTotals keeps an infinity as a plain sum does", () => {
  const s = session("/a", "2026-11-01T00:00:00Z", [["usage", null, null, "x/y", 1, 0, 0, 0, Infinity, 0, 0, 0, Infinity], ["usage", null, null, "x/y", 2, 0, 0, 0, 1, 0, 0, 0, 1]]);
  const totals = new ExactTotals();
  totals.addRow(s.usage, 0);
  totals.addRow(s.usage, 1);
  assert.equal(totals.totals().cost.total, Infinity);
  assert.equal(totals.totals().input, 3);
});

test("SeenEntries keeps each entry's owner, saved and read back", () => {
  const next = random(11);
  const a = session("/a", "2026-11-01T00:00:00Z", Array.from({ length: 400 }, (_, i) => row(i, next)));
  const odd = session("/odd", "2026-11-01T00:00:00Z", [["usage", "not-hex", "when", "x/y", 1, 0, 0, 0, 0, 0, 0, 0, 0]]);
  const seen = new SeenEntries(0);
  for (let i = 0; i < 400; i++) assert.equal(seen.add(a.usage, i, i % 5 === 0 ? 7 : 9), true);
  assert.equal(seen.add(odd.usage, 0, 3), true);
  assert.equal(seen.add(a.usage, 10, 1), false, "seen: its owner stays");
  const back = SeenEntries.from(seen.save())!;
  for (const s of [seen, back]) {
    assert.equal(s.ownerOf(a.usage, 10), 7);
    assert.equal(s.ownerOf(a.usage, 11), 9);
    assert.equal(s.ownerOf(odd.usage, 0), 3);
    assert.equal(s.ownerOf(session("/b", "", [row(5000, next)]).usage, 0), undefined);
    assert.equal(s.ownerOf(session("/v1", "", [["usage", null, null, "x/y", 1, 0, 0, 0, 0, 0, 0, 0, 0]]).usage, 0), null);
  }
  const saved = seen.save();
  saved.times[1] = saved.times[0];
  saved.ids[1] = saved.ids[0];
  assert.equal(SeenEntries.from(saved), undefined, "a pair twice is not a table it saved");
});

test("an aggregator resumed from its save and extended by grown and new sessions reports as one fed every session", () => {
  const next = random(23);
  let n = 0;
  const rows = (count: number, model?: string) => Array.from({ length: count }, () => row(n++, next, model));
  const parentRows = rows(40);
  // /other holds one of its entries twice, the second time under the model its gained rows have:
  // a copy, so that model's group does not count /other until it gains a row there.
  const otherRows = rows(30);
  const twice: UsageRow = [...otherRows[0]];
  twice[3] = "openai/gpt-5";
  const before = [
    session("/parent", "2026-11-01T00:00:00Z", parentRows),
    session("/other", "2026-11-02T00:00:00Z", [...otherRows, twice]),
    session("/fork", "2026-11-03T00:00:00Z", [...parentRows.slice(0, 25), ...rows(10)], "/parent"),
  ];
  // After: /other grew (twice the same entry among what it gained), a fork of the parent and a new session came.
  const gained = rows(12, "openai/gpt-5");
  const after = [
    before[0],
    session("/other", "2026-11-02T00:00:00Z", [...usageRows(before[1].usage), ...gained, gained[3]]),
    before[2],
    session("/fork2", "2026-11-04T00:00:00Z", [...parentRows, ...rows(5)], "/parent"),
    session("/new", "2026-11-05T00:00:00Z", rows(8)),
  ];
  const owners = new Map(after.map((s, i) => [s.path, i + 1]));
  for (const by of ["day", "model", "project", "session"] as const) {
    const options: StatsOptions = { by, tz: "UTC", breakdown: by !== "model", inScope: (s) => s.path !== "/fork" };
    const first = new StatsAggregator(options);
    for (const s of attributionOrder(before)) first.add(s, owners.get(s.path)!);
    const { stats, seen } = JSON.parse(JSON.stringify(first.save(), (_k, v) => (ArrayBuffer.isView(v) ? [...(v as Float64Array)] : v)));
    const table = SeenEntries.from({ times: Float64Array.from(seen.times), ids: Uint32Array.from(seen.ids), owners: Uint32Array.from(seen.owners), odd: seen.odd })!;
    const resumed = StatsAggregator.resume(options, stats, table);
    assert.equal(resumed.extend(after[1], 2, 31, (o) => o === 2), true);
    assert.equal(resumed.extend(after[3], 4, 0, (o) => o === 4 || o === 1), true);
    assert.equal(resumed.extend(after[4], 5, 0, (o) => o === 5), true);
    assert.deepEqual(resumed.report(), aggregateStats(after, options), by);
    // A session gaining an entry whose first holder it cannot put before itself: refused.
    const again = StatsAggregator.resume(options, stats, SeenEntries.from(first.save().seen)!);
    assert.equal(again.extend(session("/new2", "2026-11-06T00:00:00Z", [parentRows[0]]), 6, 0, (o) => o === 6), false);
  }
});
