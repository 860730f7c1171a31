/**
 * Tokens and cost grouped by day, week, month, session, model or project, each usage entry
 * counted once (see `attribution.ts`), with an optional per-model breakdown and the entries
 * behind each figure.
 * @module
 */
import { addRowAt, rowCount, rowEntry, rowKey, rowTime, type UsageSource, usageRow } from "../digest/usage-state.ts";
import { roundCosts } from "../info/round-cost.ts";
import { emptyUsage, type UsageTotals } from "../info/usage-totals.ts";
import { ExactTotals, RowLimbs, type SavedTotals } from "./exact-totals.ts";
import { attributionOrder, entryIdentity, type SavedEntries, SeenEntries, UsageAttribution, type UsageSession } from "./attribution.ts";
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
  totals: ExactTotals;
  /** Sessions that added to the group, counted as they change: a session's rows come together. */
  sessions: number;
  /** The number of the last session counted (the aggregator's count of sessions added). */
  last: number;
  models: Map<string, ExactTotals>;
  entries: StatsEntry[];
}

/**
 * What an aggregator adds up, unrounded, to go on from later (`StatsAggregator.save`, `resume`):
 * each group as its key, totals, sessions and per-model totals.
 */
export interface SavedStats {
  totals: SavedTotals;
  copies: { entries: number; usage: SavedTotals };
  groups: [key: string, totals: SavedTotals, sessions: number, models: [string, SavedTotals][]][];
}

function groupKey(by: StatsBy, session: UsageSession, i: number, day: string, hour: (ms: number) => string, calendar: (day: string) => string): string {
  if (by === "session") return session.id;
  if (by === "model") return rowKey(session.usage, i);
  if (by === "project") return session.cwd;
  if (day === "") return "unknown";
  return by === "hour" ? hour(rowTime(session.usage, i)) : calendar(day);
}

/** `calendarKey` for `by`, remembering the last day asked for (rows come in runs of one day). */
function calendarKeys(by: StatsBy): (day: string) => string {
  let lastDay: string | undefined;
  let lastKey = "";
  return (day) => {
    if (day !== lastDay) {
      lastKey = calendarKey(by as "day" | "week" | "month", day);
      lastDay = day;
    }
    return lastKey;
  };
}

function totalsOnly(exact: ExactTotals): UsageTotals {
  const t = exact.totals();
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
  const stats = new StatsAggregator(options, sessions.reduce((n, s) => n + rowCount(s.usage), 0));
  for (const session of attributionOrder(sessions)) stats.add(session);
  return stats.report();
}

/**
 * The report built one session at a time, sessions in `attributionOrder`: what it holds is the
 * groups and the (id, timestamp) pairs seen, never a session once added.
 *
 * @example
 * ```ts
 * const stats = new StatsAggregator({ by: "day", tz: "UTC" });
 * for (const session of attributionOrder(sessions)) stats.add(session);
 * stats.report().totals;
 * ```
 */
export class StatsAggregator {
  readonly #options: StatsOptions;
  readonly #attribution: UsageAttribution;
  readonly #day: (ms: number) => string;
  readonly #hour: (ms: number) => string;
  readonly #calendar: (day: string) => string;
  readonly #breakdown: boolean;
  readonly #groups = new Map<string, Group>();
  #totals = new ExactTotals();
  /** The row being added, cut once for each total it goes to. */
  readonly #row = new RowLimbs();
  #copies = { entries: 0, usage: new ExactTotals() };
  readonly #copyCounts = new Map<string, number>();
  #lastKey: string | undefined;
  #lastGroup: Group | undefined;
  #added = 0;
  readonly #inScope: (session: UsageSession) => boolean;
  readonly #owned: (session: UsageSession, i: number) => void;
  readonly #copied: (session: UsageSession, i: number) => void;

  /** `rows`: how many usage rows will come, if known; or the pairs seen by the aggregator resumed. */
  constructor(options: StatsOptions, rows: number | SeenEntries = 0) {
    this.#options = options;
    this.#attribution = new UsageAttribution(rows);
    this.#day = localDays(options.tz);
    this.#hour = localHours(options.tz);
    this.#calendar = calendarKeys(options.by);
    // Rows by model are the models already: a breakdown would repeat each under itself.
    this.#breakdown = options.breakdown === true && options.by !== "model";
    this.#inScope = options.inScope ?? (() => true);
    this.#owned = (session, i) => this.#addOwned(session, i);
    this.#copied = (session, i) => this.#addCopy(session, i);
  }

  /**
   * Adds a session's rows; call in attribution order, every session once. `owner`: the session's
   * number, kept with the entries it holds first (for `extend`).
   */
  add(session: UsageSession, owner = 0): void {
    this.#added++;
    this.#attribution.add(session, this.#owned, this.#copied, owner);
  }

  /**
   * What the aggregator holds, to go on from later (`resume`): read with no other call between.
   * Not with `explain` (its entries are not kept).
   */
  save(): { stats: SavedStats; seen: SavedEntries } {
    const groups = [...this.#groups].map(([key, g]): SavedStats["groups"][number] => [key, g.totals.save(), g.sessions, [...g.models].map(([model, t]) => [model, t.save()])]);
    const copies = { entries: this.#copies.entries, usage: this.#copies.usage.save() };
    return { stats: { totals: this.#totals.save(), copies, groups }, seen: this.#attribution.seen.save() };
  }

  /**
   * An aggregator that goes on from one saved with the same options; throws `TypeError` for
   * anything `save` cannot have made.
   */
  static resume(options: StatsOptions, saved: SavedStats, seen: SeenEntries): StatsAggregator {
    const stats = new StatsAggregator(options, seen);
    if (!Array.isArray(saved?.groups) || !Number.isInteger(saved.copies?.entries)) throw new TypeError("not saved stats");
    stats.#totals = ExactTotals.from(saved.totals);
    stats.#copies.entries = saved.copies.entries;
    stats.#copies.usage = ExactTotals.from(saved.copies.usage);
    for (const [key, totals, sessions, models] of saved.groups) {
      if (typeof key !== "string" || !Number.isInteger(sessions) || !Array.isArray(models)) throw new TypeError("not saved stats");
      const byModel = new Map(models.map(([model, t]) => [String(model), ExactTotals.from(t)]));
      stats.#groups.set(key, { totals: ExactTotals.from(totals), sessions, last: -1, models: byModel, entries: [] });
    }
    return stats;
  }

  /**
   * Adds the rows from `from` on of a session whose first `from` rows were added before, as
   * `owner`, and are the same. A new row whose entry was seen is a copy when the entry's owner
   * is one `before` says comes before this session in attribution order (itself, its parent);
   * with any other owner nothing is added and false is returned: the order would have to be
   * made again. False too when the rows added before do not match what was kept.
   */
  extend(session: UsageSession, owner: number, from: number, before: (owner: number) => boolean): boolean {
    const { seen } = this.#attribution;
    const usage = session.usage;
    for (let i = from; i < rowCount(usage); i++) {
      const first = seen.ownerOf(usage, i);
      if (first !== undefined && first !== null && !before(first)) return false;
    }
    this.#added++;
    // The groups its rows were the first of count the session already; a pair held twice in the
    // session is the first time only.
    const inSession = new SeenEntries(from);
    for (let i = 0; i < from; i++) {
      const first = seen.ownerOf(usage, i);
      // An entry added before is in the table, else the kept state is not this session's.
      if (first === undefined) return false;
      const itsOwn = first === null || (first === owner && inSession.add(usage, i) !== false);
      if (!itsOwn) continue;
      const key = this.#keyOf(session, i);
      if (key === null) continue;
      const group = this.#groups.get(key);
      if (!group) return false;
      group.last = this.#added;
    }
    this.#attribution.add(session, this.#owned, this.#copied, owner, from);
    return true;
  }

  /** The row's local day, "" when its timestamp is not a time, or null when it is out of bounds. */
  #dayInRange(session: UsageSession, i: number): string | null {
    const { since, until } = this.#options;
    const ms = rowTime(session.usage, i);
    if (Number.isNaN(ms)) return since === undefined && until === undefined ? "" : null;
    const local = this.#day(ms);
    return (!since || onOrAfter(since, ms, local)) && (!until || onOrBefore(until, ms, local)) ? local : null;
  }

  /** The key of the group row `i` adds to when it is the first of its entry; null when none (out of scope or bounds). */
  #keyOf(session: UsageSession, i: number): string | null {
    if (!this.#inScope(session)) return null;
    const local = this.#dayInRange(session, i);
    return local === null ? null : groupKey(this.#options.by, session, i, local, this.#hour, this.#calendar);
  }

  #addOwned(session: UsageSession, i: number): void {
    const key = this.#keyOf(session, i);
    if (key === null) return;
    const { explain } = this.#options;
    // The group of the row before, if the same (a session's rows mostly share a day and model).
    let group = key === this.#lastKey ? this.#lastGroup : this.#groups.get(key);
    if (!group) this.#groups.set(key, group = { totals: new ExactTotals(), sessions: 0, last: -1, models: new Map(), entries: [] });
    this.#lastKey = key;
    this.#lastGroup = group;
    const row = this.#row.read(session.usage, i);
    this.#totals.add(row);
    group.totals.add(row);
    if (group.last !== this.#added) {
      group.last = this.#added;
      group.sessions++;
    }
    if (this.#breakdown) {
      const modelKey = rowKey(session.usage, i);
      let model = group.models.get(modelKey);
      if (!model) group.models.set(modelKey, model = new ExactTotals());
      model.add(row);
    }
    if (explain === true || explain === key) group.entries.push(entryOf(session, i));
  }

  #addCopy(session: UsageSession, i: number): void {
    const { explain } = this.#options;
    // Copies are only counted per entry when they are listed.
    if (explain !== undefined && explain !== false) {
      const identity = entryIdentity(...rowEntry(session.usage, i))!;
      this.#copyCounts.set(identity, (this.#copyCounts.get(identity) ?? 0) + 1);
    }
    if (!this.#inScope(session) || this.#dayInRange(session, i) === null) return;
    this.#copies.entries++;
    this.#copies.usage.addRow(session.usage, i);
  }

  /** The report of the sessions added so far. */
  report(): StatsReport {
    const { by, explain } = this.#options;
    const breakdown = this.#breakdown;
    const timeOrdered = by === "hour" || by === "day" || by === "week" || by === "month";
    const rows = [...this.#groups].map(([key, group]): StatsRow => {
      const row: StatsRow = { key, ...totalsOnly(group.totals), sessions: group.sessions };
      if (breakdown) {
        // Equal costs by key: the order models came in is not the same in a report gone on from a base.
        row.models = [...group.models].map(([model, t]) => ({ key: model, ...totalsOnly(t) }))
          .sort((a, b) => b.cost.total - a.cost.total || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      }
      if (explain === true || explain === key) {
        for (const entry of group.entries) {
          const identity = entryIdentity(entry.entryId, entry.timestamp);
          entry.copies = identity === null ? 0 : this.#copyCounts.get(identity) ?? 0;
        }
        row.entries = group.entries;
      }
      return row;
    });
    rows.sort(timeOrdered ? (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : (a, b) => b.cost.total - a.cost.total || (a.key < b.key ? -1 : 1));
    const copies = this.#copies;
    return { totals: totalsOnly(this.#totals), rows, copies: { entries: copies.entries, usage: totalsOnly(copies.usage) } };
  }
}
