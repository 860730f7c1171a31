/**
 * `stats`: tokens and cost grouped by hour, day, week, month, session, model or project. Every
 * usage entry is counted once, for the session it first appeared in, however many forks and
 * clones copied it; `explain` keeps the entries behind each figure.
 * @module
 */
import { type SavedStats, StatsAggregator, type StatsReport } from "../core/stats/aggregate-stats.ts";
import type { SavedEntries } from "../core/stats/attribution.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import type { StatsBy } from "../core/stats/time-buckets.ts";
import { dateOption, timeZoneOption } from "./date-options.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { withListedRows } from "./list-rows.ts";
import { uniquePrefixesAmong } from "../render/unique-prefix.ts";
import { cataloguedSessions } from "./scope.ts";
import { usageScope } from "./usage-sessions.ts";
import { keptReport, readReport, statsAnswerKey } from "./stats-answer.ts";
import { eachUsageSession, type KeptAnswer } from "./usage-stream.ts";

export type { StatsBy };
export const STATS_BY: readonly StatsBy[] = ["hour", "day", "week", "month", "session", "model", "project"];

export interface StatsOptions {
  /** Every project (default: the env cwd's sessions). */
  all?: boolean;
  /** How to group rows (default `day`). */
  by?: StatsBy;
  /** Day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d, 12h, 2w), as `--since` takes it. */
  since?: string;
  until?: string;
  /** IANA time zone for hours, days, weeks and months (default: the machine's). */
  tz?: string;
  /** Per-model totals under each row (`rows[].models`); not with `by: "model"`. */
  breakdown?: boolean;
  /** The entries behind every row (true), or behind the row with this key (`rows[].entries`). */
  explain?: boolean | string;
  /** With `by: "session"`: also the sessions that label its rows (`StatsResult.labels`). */
  labels?: boolean;
}

/** What `stats --json` prints (docs/schema/stats.schema.json), without `schemaVersion`. */
export type StatsJson = StatsReport;

export interface StatsResult {
  value: StatsJson;
  /**
   * With `by: "session"` and `labels`: the sessions of the rows (their names and cwds), and their
   * ids' short forms, unique among every project's sessions (a printed id names one session from
   * any directory).
   */
  labels?: { sessions: StatsLabel[]; shortIds: Map<string, string> };
}

/** What labels a session's row: its id, name and cwd. */
export type StatsLabel = Pick<SessionInfo, "id" | "name" | "cwd">;

/** The usage report. */
export async function usageStats(env: QueryEnv, options: StatsOptions = {}): Promise<StatsResult> {
  const by = options.by ?? "day";
  if (!STATS_BY.includes(by)) throw new QueryError("bad-option", `Cannot group by "${by}"`, `Group by one of ${STATS_BY.join(", ")}`);
  const since = dateOption(env, "since", options.since);
  const until = dateOption(env, "until", options.until);
  const tz = timeZoneOption(options.tz);
  const all = Boolean(options.all);
  const breakdown = Boolean(options.breakdown);
  const inScope = await usageScope(env, all);
  const aggregate = { by, tz, since, until, inScope, breakdown, explain: options.explain };
  let report: StatsReport | undefined;
  let stats = new StatsAggregator(aggregate);
  const key = await statsAnswerKey(env, { all, by, tz, since, until, breakdown, explain: options.explain });
  const kept: KeptAnswer | undefined = key === undefined ? undefined : {
    key,
    found: (body) => (report = readReport(body)) !== undefined,
    made: () => keptReport(report = reportOf(stats.report())),
    // Grouped by session, a base (every session's group, 25,000 at the scale corpus) took 250-290
    // MB to go on from and keep again, and a section keeps one base: it would take the place of
    // the other groupings' (by day, most often asked). Its report is kept, and made again by a walk.
    base: by === "session" ? undefined : {
      save: () => saved(stats),
      resume: (answer, seen) => {
        let going: StatsAggregator;
        try {
          going = StatsAggregator.resume(aggregate, answer as SavedStats, seen);
        } catch {
          return undefined;
        }
        return {
          extend: (session, owner, from, before) => going.extend(session, owner, from, before),
          made: () => keptReport(reportOf(going.report())),
          save: () => saved(going),
        };
      },
    },
  };
  await eachUsageSession(env, () => {
    stats = new StatsAggregator(aggregate);
    return (session, file) => stats.add(session, file);
  }, kept);
  report ??= stats.report();
  const value = reportOf(report);
  if (by !== "session" || !options.labels) return { value };
  return { value, labels: await statsLabels(env, new Set(value.rows.map((row) => row.key))) };
}

/** Rows up to which their labels are read by id, and their short ids found from the stored ids nearest each. */
const FEW_LABELS = 2_000;

/**
 * The labels of the sessions `ids` and their short ids, read after the report from the listing's
 * rows where the catalog keeps them: the walk holds no session past its turn (every session's
 * usage held for its name took 1.5 s and 308 MB at 25,000 sessions). For a few (one project's
 * sessions), their rows alone and the ids nearest each: every row read in the order of ids, and
 * every id compared, took 150 ms of the 250 of a project's `stats --by session` at 25,000 sessions.
 */
async function statsLabels(env: QueryEnv, ids: ReadonlySet<string>): Promise<StatsResult["labels"]> {
  const shown = [...ids];
  const fromRows = await withListedRows(env, { all: true }, async (listed) => {
    const sessions: StatsLabel[] = [];
    if (listed.withIds && shown.length <= FEW_LABELS) {
      for (const { id, name, cwd } of listed.withIds(shown)) sessions.push({ id, name: name ?? undefined, cwd });
      return { sessions, shortIds: await listed.shortIdsOf(shown) };
    }
    const knownIds: string[] = [];
    for (const { id, name, cwd } of listed.byId(false)) {
      knownIds.push(id);
      if (ids.has(id)) sessions.push({ id, name: name ?? undefined, cwd });
    }
    return { sessions, shortIds: uniquePrefixesAmong(shown, knownIds) };
    // The walk that made the report told of files with a bad header already.
  }, { badHeaders: false });
  if (fromRows) return fromRows;
  const { sessions, knownIds } = await cataloguedSessions(env, true, { knownIds: true, keep: (info) => ids.has(info.id), badHeaders: false });
  return { sessions, shortIds: uniquePrefixesAmong(shown, knownIds) };
}

/** What an aggregator holds, as a base keeps it (usage-base.ts). */
function saved(stats: StatsAggregator): { answer: unknown; seen: SavedEntries } {
  const { stats: answer, seen } = stats.save();
  return { answer, seen };
}

/** The report's own fields, in the order printed. */
function reportOf(report: StatsReport): StatsReport {
  return { totals: report.totals, rows: report.rows, copies: report.copies };
}
