/**
 * Tokens and cost grouped by day, week, month, session, model or project, each usage entry
 * counted once (see `attribution.ts`), with an optional per-model breakdown and the entries
 * behind each figure.
 * @module
 */
import { addRowAt, rowEntry, rowKey, rowTime, type UsageSource, usageRow } from "../digest/usage-state.ts";
import { roundCosts } from "../info/round-cost.ts";
import { emptyUsage, type UsageTotals } from "../info/usage-totals.ts";
import { attributeUsage, entryIdentity, type UsageSession } from "./attribution.ts";
import { type DateBound, onOrAfter, onOrBefore } from "./date-bound.ts";
import { calendarKey, localDays, localHours, type StatsBy } from "./time-buckets.ts";

/** How to group and what to include. */
export interface StatsOptions {
  by: StatsBy;
  /** IANA time zone for calendar keys and day bounds; the runtime's when absent. */
  tz?: string;
  since?: DateBound;
  until?: DateBound;
  /** Which sessions' entries are reported; every session still takes part in attribution. */
  inScope?: (session: UsageSession) => boolean;
  /** Add each row's per-model totals (not with `by: "model"`, whose rows are the models). */
  breakdown?: boolean;
  /** Keep the entries behind every row (true) or behind the row with this key. */
  explain?: boolean | string;
}

/** One entry behind a figure. `copies` is how many other sessions hold it too. */
export interface StatsEntry extends UsageTotals {
  session: string;
  sessionId: string;
  entryId: string | null;
  timestamp: string | null;
  source: UsageSource;
  model: string;
  copies: number;
}

/** A group: its key, its totals, how many sessions contributed. */
export interface StatsRow extends UsageTotals {
  key: string;
  sessions: number;
  models?: (UsageTotals & { key: string })[];
  entries?: StatsEntry[];
}

/** Totals, rows, and what copies were left out. Costs are rounded to 1e-9 of a dollar. */
export interface StatsReport {
  totals: UsageTotals;
  rows: StatsRow[];
  /** Copies skipped in scope: what summing every file separately would have added. */
  copies: { entries: number; usage: UsageTotals };
}

interface Group {
  totals: UsageTotals;
  sessions: Set<UsageSession>;
  models: Map<string, UsageTotals>;
  entries: StatsEntry[];
}

function groupKey(by: StatsBy, session: UsageSession, i: number, day: string, hour: (ms: number) => string): string {
  if (by === "session") return session.id;
  if (by === "model") return rowKey(session.usage, i);
  if (by === "project") return session.cwd;
  if (day === "") return "unknown";
  return by === "hour" ? hour(rowTime(session.usage, i)) : calendarKey(by, day);
}

function totalsOnly(t: UsageTotals): UsageTotals {
  return roundCosts({ input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, totalTokens: t.totalTokens, cost: t.cost });
}

function entryOf(session: UsageSession, i: number): StatsEntry {
  const [source, entryId, timestamp, model] = usageRow(session.usage, i);
  const usage = emptyUsage();
  addRowAt(usage, session.usage, i);
  return { session: session.path, sessionId: session.id, entryId, timestamp, source, model, copies: 0, ...roundCosts(usage) };
}

/**
 * The report for `sessions` (all of them, so that copies are recognised across projects).
 *
 * @example
 * ```ts
 * aggregateStats([], { by: "day", tz: "UTC" }).rows; // []
 * ```
 */
export function aggregateStats(sessions: readonly UsageSession[], options: StatsOptions): StatsReport {
  const { by, since, until, inScope = () => true, explain } = options;
  const day = localDays(options.tz);
  const hour = localHours(options.tz);
  // Rows by model are the models already: a breakdown would repeat each under itself.
  const breakdown = options.breakdown === true && by !== "model";
  const groups = new Map<string, Group>();
  const totals = emptyUsage();
  const copies = { entries: 0, usage: emptyUsage() };
  const copyCounts = new Map<string, number>();
  // The row's local day, "" when its timestamp is not a time, or null when it is out of bounds.
  const dayInRange = (session: UsageSession, i: number): string | null => {
    const ms = rowTime(session.usage, i);
    if (Number.isNaN(ms)) return since === undefined && until === undefined ? "" : null;
    const local = day(ms);
    return (!since || onOrAfter(since, ms, local)) && (!until || onOrBefore(until, ms, local)) ? local : null;
  };
  attributeUsage(sessions, (session, i) => {
    if (!inScope(session)) return;
    const local = dayInRange(session, i);
    if (local === null) return;
    const key = groupKey(by, session, i, local, hour);
    let group = groups.get(key);
    if (!group) groups.set(key, group = { totals: emptyUsage(), sessions: new Set(), models: new Map(), entries: [] });
    addRowAt(totals, session.usage, i);
    addRowAt(group.totals, session.usage, i);
    group.sessions.add(session);
    if (breakdown) {
      const modelKey = rowKey(session.usage, i);
      let model = group.models.get(modelKey);
      if (!model) group.models.set(modelKey, model = emptyUsage());
      addRowAt(model, session.usage, i);
    }
    if (explain === true || explain === key) group.entries.push(entryOf(session, i));
  }, (session, i) => {
    // Copies are only counted per entry when they are listed.
    if (explain !== undefined && explain !== false) {
      const identity = entryIdentity(...rowEntry(session.usage, i))!;
      copyCounts.set(identity, (copyCounts.get(identity) ?? 0) + 1);
    }
    if (!inScope(session) || dayInRange(session, i) === null) return;
    copies.entries++;
    addRowAt(copies.usage, session.usage, i);
  });
  const timeOrdered = by === "hour" || by === "day" || by === "week" || by === "month";
  const rows = [...groups].map(([key, group]): StatsRow => {
    const row: StatsRow = { key, ...totalsOnly(group.totals), sessions: group.sessions.size };
    if (breakdown) {
      row.models = [...group.models].map(([model, t]) => ({ key: model, ...totalsOnly(t) })).sort((a, b) => b.cost.total - a.cost.total);
    }
    if (explain === true || explain === key) {
      for (const entry of group.entries) {
        const identity = entryIdentity(entry.entryId, entry.timestamp);
        entry.copies = identity === null ? 0 : copyCounts.get(identity) ?? 0;
      }
      row.entries = group.entries;
    }
    return row;
  });
  rows.sort(timeOrdered ? (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : (a, b) => b.cost.total - a.cost.total || (a.key < b.key ? -1 : 1));
  return { totals: totalsOnly(totals), rows, copies: { entries: copies.entries, usage: totalsOnly(copies.usage) } };
}
