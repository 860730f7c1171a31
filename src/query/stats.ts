/**
 * `stats`: tokens and cost grouped by hour, day, week, month, session, model or project. Every
 * usage entry is counted once, for the session it first appeared in, however many forks and
 * clones copied it; `explain` keeps the entries behind each figure.
 * @module
 */
import { aggregateStats, type SavedStats, StatsAggregator, type StatsReport } from "../core/stats/aggregate-stats.ts";
import type { SavedEntries, UsageSession } from "../core/stats/attribution.ts";
import type { StatsBy } from "../core/stats/time-buckets.ts";
import { dateOption, timeZoneOption } from "./date-options.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { usageScope, usageSessions } from "./usage-sessions.ts";
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
}

/** What `stats --json` prints (docs/schema/stats.schema.json), without `schemaVersion`. */
export type StatsJson = StatsReport;

export interface StatsResult {
  value: StatsJson;
  /**
   * With `by: "session"`, every session's usage (every project's: ids and names for its rows);
   * otherwise none, so that no session is held past its turn.
   */
  sessions: UsageSession[];
}

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
  let sessions: UsageSession[] = [];
  if (by === "session") {
    sessions = await usageSessions(env, true);
    report = aggregateStats(sessions, aggregate);
  } else {
    let stats = new StatsAggregator(aggregate);
    const key = await statsAnswerKey(env, { all, by, tz, since, until, breakdown, explain: options.explain });
    const kept: KeptAnswer | undefined = key === undefined ? undefined : {
      key,
      found: (body) => (report = readReport(body)) !== undefined,
      made: () => keptReport(report = reportOf(stats.report())),
      base: {
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
  }
  return { value: reportOf(report), sessions };
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
