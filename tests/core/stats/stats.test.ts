/**
 * Stats: each (id, timestamp) counted once, for parents before forks whatever the header
 * times say; calendar keys in a time zone; date bounds; breakdown and explain.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { usageDigest } from "../../../src/core/digest/usage-digest.ts";
import { pushRow, type UsageRow, usageRows } from "../../../src/core/digest/usage-state.ts";
import { aggregateStats } from "../../../src/core/stats/aggregate-stats.ts";
import { attributionOrder, type UsageSession } from "../../../src/core/stats/attribution.ts";
import { parseDateBound } from "../../../src/core/stats/date-bound.ts";
import { isoWeek, localDays } from "../../../src/core/stats/time-buckets.ts";

function row(id: string | null, ts: string | null, cost: number, key = "anthropic/claude"): UsageRow {
  return ["assistant", id, ts, key, 10, 1, 0, 0, 0, 0, 0, 0, cost];
}

function session(path: string, created: string, rows: UsageRow[], extra: Partial<UsageSession> = {}): UsageSession {
  const usage = usageDigest.initial();
  for (const r of rows) pushRow(usage, r);
  return { path, id: path.slice(1), cwd: "/p", created, usage, ...extra };
}

test("attributionOrder() puts parents before forks, then oldest header, then path", () => {
  const parent = session("/parent", "2025-06-02T00:00:00Z", []);
  const fork = session("/fork", "2025-06-01T00:00:00Z", [], { parentSession: "/parent" });
  const other = session("/a", "2025-06-01T00:00:00Z", []);
  const loop1 = session("/l1", "2025-01-01T00:00:00Z", [], { parentSession: "/l2" });
  const loop2 = session("/l2", "2025-01-02T00:00:00Z", [], { parentSession: "/l1" });
  assert.deepEqual(attributionOrder([fork, other, parent, loop2, loop1]).map((s) => s.path), ["/l2", "/l1", "/a", "/parent", "/fork"]);
});

test("aggregateStats() counts an entry copied into forks once, for its first session", () => {
  const shared = row("e1", "2025-06-01T10:00:00Z", 1);
  const parent = session("/parent", "2025-06-01T09:00:00Z", [shared, row("e2", "2025-06-01T11:00:00Z", 2)]);
  const fork = session("/fork", "2025-06-01T12:00:00Z", [shared, row("e3", "2025-06-02T10:00:00Z", 4)], { parentSession: "/parent" });
  const clone = session("/clone", "2025-06-03T12:00:00Z", [shared, row("e3", "2025-06-02T10:00:00Z", 4)], { parentSession: "/fork" });
  const report = aggregateStats([clone, fork, parent], { by: "session", tz: "UTC" });
  assert.equal(report.totals.cost.total, 7);
  assert.deepEqual(report.rows.map((r) => [r.key, r.cost.total, r.sessions]), [["fork", 4, 1], ["parent", 3, 1]]);
  assert.equal(report.copies.entries, 3);
  assert.equal(report.copies.usage.cost.total, 6);
});

test("aggregateStats() counts each (id, timestamp) once over thousands of pi-style rows, as a set of strings would", () => {
  // pi's own ids and timestamps (kept as numbers), colliding ids, and odd ones (kept as strings).
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) % 0x8000_0000) / 0x8000_0000;
  const stamp = (): [string, string] => {
    const id = Math.floor(next() * 0x1_0000_0000).toString(16).padStart(8, "0");
    const ms = Date.UTC(2025, 5, 1) + Math.floor(next() * 100) * 1000;
    return next() < 0.1 ? [id.toUpperCase(), new Date(ms).toISOString()] : [next() < 0.1 ? "0000abcd" : id, new Date(ms).toISOString()];
  };
  const pool = Array.from({ length: 3000 }, stamp);
  const sessions = Array.from({ length: 12 }, (_, k) => {
    const rows = Array.from({ length: 1500 }, (_, i) => {
      const [id, ts] = pool[Math.floor(next() * pool.length)];
      return row(id, ts, 2 ** (i % 20));
    });
    return session(`/s${k}`, `2025-06-0${1 + (k % 9)}T00:00:00.000Z`, rows);
  });
  const seen = new Set<string>();
  let expected = 0;
  let copies = 0;
  for (const s of attributionOrder(sessions)) {
    for (const r of usageRows(s.usage)) {
      const identity = `${r[1]}\n${r[2]}`;
      if (seen.has(identity)) copies++;
      else expected += r[12];
      seen.add(identity);
    }
  }
  const report = aggregateStats(sessions, { by: "session", tz: "UTC" });
  assert.equal(report.totals.cost.total, expected);
  assert.equal(report.copies.entries, copies);
  assert.ok(copies > 10_000 && seen.size > 2000, `${copies} copies of ${seen.size} entries`);
});

test("aggregateStats() never merges entries without ids", () => {
  const a = session("/a", "2025-06-01T00:00:00Z", [row(null, null, 1)]);
  const b = session("/b", "2025-06-01T00:00:00Z", [row(null, null, 1)]);
  assert.equal(aggregateStats([a, b], { by: "day", tz: "UTC" }).totals.cost.total, 2);
});

test("aggregateStats() tells entries apart by id and timestamp, also within one file", () => {
  const ts = "2025-06-01T10:00:00Z";
  const a = session("/a", "2025-06-01T00:00:00Z", [row("x", ts, 1), row("y", ts, 2), row("z", ts, 4), row("x", ts, 8), row("x", "2025-06-01T10:00:01Z", 16)]);
  const b = session("/b", "2025-06-02T00:00:00Z", [row("y", ts, 2), row("w", ts, 32)]);
  const report = aggregateStats([b, a], { by: "session", tz: "UTC" });
  assert.deepEqual(report.rows.map((r) => [r.key, r.cost.total]), [["b", 32], ["a", 23]]);
  assert.deepEqual([report.copies.entries, report.copies.usage.cost.total], [2, 10]);
});

test("aggregateStats() groups by calendar day in the time zone asked for", () => {
  const s = session("/s", "2025-01-01T00:00:00Z", [row("a", "2025-01-31T20:00:00Z", 1), row("b", "2025-02-01T02:00:00Z", 2)]);
  const utc = aggregateStats([s], { by: "day", tz: "UTC" });
  assert.deepEqual(utc.rows.map((r) => r.key), ["2025-01-31", "2025-02-01"]);
  const tokyo = aggregateStats([s], { by: "month", tz: "Asia/Tokyo" });
  assert.deepEqual(tokyo.rows.map((r) => [r.key, r.cost.total]), [["2025-02", 3]]);
  assert.deepEqual(aggregateStats([s], { by: "week", tz: "UTC" }).rows.map((r) => r.key), ["2025-W05"]);
});

test("aggregateStats() applies --since/--until as inclusive calendar bounds or instants", () => {
  const s = session("/s", "2025-01-01T00:00:00Z", [row("a", "2025-06-01T10:00:00Z", 1), row("b", "2025-06-02T10:00:00Z", 2), row("c", "2025-07-01T00:00:00Z", 4)]);
  const now = new Date("2025-07-01T12:00:00Z");
  const total = (since?: string, until?: string) =>
    aggregateStats([s], { by: "day", tz: "UTC", since: since ? parseDateBound(since, now) : undefined, until: until ? parseDateBound(until, now) : undefined }).totals.cost.total;
  assert.equal(total("2025-06-02"), 6);
  assert.equal(total(undefined, "2025-06"), 3);
  assert.equal(total("2025-06-01T12:00:00Z", "2025-07-01T00:00:00Z"), 2);
  assert.equal(total("1d"), 4);
  assert.throws(() => parseDateBound("last week", now), SyntaxError);
});

test("parseDateBound() takes real calendar days and months only", () => {
  const now = new Date("2025-06-10T00:00:00Z");
  for (const ok of ["2025", "2025-01", "2025-12", "2024-02-29", "2025-12-31", "0099-03-01"]) assert.deepEqual(parseDateBound(ok, now), { day: ok }, ok);
  for (const bad of ["2025-13", "2025-00", "2025-13-45", "2025-02-29", "2025-04-31", "2025-06-00"]) {
    assert.throws(() => parseDateBound(bad, now), SyntaxError, bad);
  }
});

test("aggregateStats() adds per-model totals and the entries behind a row on request", () => {
  const shared = row("a", "2025-06-01T10:00:00Z", 1, "openai/gpt-5");
  const s = session("/s", "2025-06-01T00:00:00Z", [shared, row("b", "2025-06-01T11:00:00Z", 2)]);
  const fork = session("/f", "2025-06-02T00:00:00Z", [shared], { parentSession: "/s" });
  const report = aggregateStats([s, fork], { by: "day", tz: "UTC", breakdown: true, explain: "2025-06-01" });
  const [day] = report.rows;
  assert.deepEqual(day.models!.map((m) => [m.key, m.cost.total]), [["anthropic/claude", 2], ["openai/gpt-5", 1]]);
  assert.deepEqual(day.entries!.map((e) => [e.entryId, e.session, e.copies]), [["a", "/s", 1], ["b", "/s", 0]]);
  assert.deepEqual(Object.keys(aggregateStats([s], { by: "day", tz: "UTC" }).rows[0]), ["key", "input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost", "sessions"]);
});

test("calendar helpers: ISO weeks and local days", () => {
  assert.equal(isoWeek("2021-01-03"), "2020-W53");
  assert.equal(isoWeek("2025-12-29"), "2026-W01");
  assert.equal(localDays("America/New_York")(Date.parse("2025-03-09T06:59:00Z")), "2025-03-09");
  assert.equal(localDays("America/New_York")(Date.parse("2025-03-09T04:59:00Z")), "2025-03-08");
});

/** Instants over two years in steps of 7 h 13 min (every hour of the day, both DST changes), and some far ones. */
function instants(): number[] {
  const out: number[] = [];
  for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2026, 0, 1); ms += (7 * 60 + 13) * 60_000) out.push(ms);
  out.push(Date.UTC(-1, 5, 1), Date.UTC(0, 0, 1), Date.UTC(1, 0, 1), Date.UTC(9999, 11, 31, 23), Date.UTC(10000, 0, 1), Date.UTC(275000, 0, 1));
  return out;
}

function byIntl(tz: string | undefined): (ms: number) => string {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hourCycle: "h23" });
  return (ms) => {
    const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
    return `${parts.year.padStart(4, "0")}-${parts.month}-${parts.day}`;
  };
}

test("localDays() in the runtime's zone and in UTC (Date's getters) agrees with Intl, whatever the zone", (t) => {
  const saved = process.env.TZ;
  try {
    for (const zone of ["America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "Europe/Berlin", "UTC"]) {
      process.env.TZ = zone;
      const intl = byIntl(undefined);
      if (!instants().every((ms) => intl(ms) === byIntl(zone)(ms))) {
        t.diagnostic(`this runtime did not take TZ=${zone} at run time; zone left out`);
        continue;
      }
      const local = localDays();
      for (const ms of instants()) assert.equal(local(ms), intl(ms), `${zone} at ${ms}`);
    }
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
  for (const tz of ["UTC", "Etc/UTC", "utc"]) {
    const [utc, intl] = [localDays(tz), byIntl(tz)];
    for (const ms of instants()) assert.equal(utc(ms), intl(ms), `${tz} at ${ms}`);
  }
});

test("aggregateStats() puts rows that go back and forth between days, weeks and hours in the right group each time", () => {
  // Rows of one session jump between two weeks, and back within a day: each must land in its own
  // group, however many rows of another group came just before.
  const times = ["2025-06-01T10:00:00Z", "2025-06-09T10:00:00Z", "2025-06-01T10:05:00Z", "2025-06-01T23:59:00Z", "2025-06-09T10:00:01Z", "2025-06-02T00:00:00Z"];
  const a = session("/a", "2025-06-01T00:00:00Z", times.map((ts, i) => row(`a${i}`, ts, 2 ** i)));
  const b = session("/b", "2025-06-02T00:00:00Z", [row("b0", "2025-06-09T11:00:00Z", 64), row("b1", "2025-06-01T10:01:00Z", 128)]);
  const grouped = (by: "hour" | "day" | "week" | "month") => aggregateStats([a, b], { by, tz: "UTC" }).rows.map((r) => [r.key, r.cost.total, r.sessions]);
  assert.deepEqual(grouped("day"), [["2025-06-01", 1 + 4 + 8 + 128, 2], ["2025-06-02", 32, 1], ["2025-06-09", 2 + 16 + 64, 2]]);
  assert.deepEqual(grouped("week"), [["2025-W22", 1 + 4 + 8 + 128, 2], ["2025-W23", 32, 1], ["2025-W24", 2 + 16 + 64, 2]]);
  assert.deepEqual(grouped("hour"), [
    ["2025-06-01 10:00", 1 + 4 + 128, 2],
    ["2025-06-01 23:00", 8, 1],
    ["2025-06-02 00:00", 32, 1],
    ["2025-06-09 10:00", 2 + 16, 1],
    ["2025-06-09 11:00", 64, 1],
  ]);
  assert.deepEqual(grouped("month"), [["2025-06", 255, 2]]);
});
