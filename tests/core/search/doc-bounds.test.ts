/**
 * `docBounds()`: every document `docFilter()` keeps lies within the bounds (an index may leave
 * the rest out), and a calendar bound is no wider than its margin, in zones east and west, with
 * half and quarter hours, across changes of summer time.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mulberry32 as random } from "../../../scripts/seeded-random.ts";
import { BOUND_MARGIN_MS, docBounds, docFilter, type DocFilterOptions } from "../../../src/core/search/doc-filter.ts";

const ZONES = ["UTC", "Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kathmandu", "Australia/Lord_Howe", "Europe/Berlin", "America/Santiago"];
const PREFIXES = ["2025", "2025-03", "2025-03-30", "2025-10-26", "2025-12-31", "2024-02-29", "2026-04-05"];

test("docBounds() holds every document docFilter() keeps, for day, month and year bounds in many zones", () => {
  const next = random(7);
  for (const tz of ZONES) {
    for (const prefix of PREFIXES) {
      for (const filter of [{ since: { day: prefix } }, { until: { day: prefix } }, { since: { day: prefix }, until: { day: prefix } }] as DocFilterOptions[]) {
        const options = { ...filter, tz };
        const keeps = docFilter(options);
        const { fromMs = -Infinity, toMs = Infinity } = docBounds(options);
        // Instants spread over two days around the period's edges, and some anywhere near it.
        const start = Date.parse(`${prefix.padEnd(10, prefix.length === 4 ? "-01-01" : "-01").slice(0, 10)}T00:00:00Z`);
        for (let i = 0; i < 400; i++) {
          const base = i % 4 === 0 ? start : i % 4 === 1 ? start + 400 * 86400e3 * next() : start + (prefix.length === 4 ? 365 : prefix.length === 7 ? 31 : 1) * 86400e3;
          const ms = Math.round(base + (next() - 0.5) * 2 * 86400e3);
          const kept = keeps({ role: "user", part: "text", timestamp: new Date(ms).toISOString() });
          if (kept) assert.ok(ms >= fromMs && ms < toMs, `${tz} ${JSON.stringify(filter)} ${new Date(ms).toISOString()}`);
        }
        // No wider than the margin: a quarter hour past it, inside the bounds, is kept.
        if (filter.since && !filter.until) assert.ok(keeps({ role: "user", part: "text", timestamp: new Date(fromMs + BOUND_MARGIN_MS + 15 * 60e3).toISOString() }), `${tz} since ${prefix}`);
        if (filter.until && !filter.since) assert.ok(keeps({ role: "user", part: "text", timestamp: new Date(toMs - BOUND_MARGIN_MS - 15 * 60e3).toISOString() }), `${tz} until ${prefix}`);
      }
    }
  }
});

test("docBounds() takes instants as they are, roles as given, and leaves out nothing without options", () => {
  assert.deepEqual(docBounds({}), {});
  assert.deepEqual(docBounds({ thinking: true, roles: [] }), {});
  assert.deepEqual(docBounds({ since: { ms: 5 }, until: { ms: 9 }, roles: ["user", "label"] }), { fromMs: 5, toMs: 9, roles: ["user", "label"] });
  // UTC: the day's first instant, widened by the margin.
  assert.deepEqual(docBounds({ since: { day: "2025-06-01" }, until: { day: "2025-06" }, tz: "UTC" }), { fromMs: Date.UTC(2025, 5, 1) - BOUND_MARGIN_MS, toMs: Date.UTC(2025, 6, 1) + BOUND_MARGIN_MS });
});
