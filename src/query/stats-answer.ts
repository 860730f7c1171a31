/**
 * What names a `stats` report kept in the catalog (sqlite-answers.ts): everything the report is
 * made from besides the usage records themselves, whose changes the store counts. A warm `stats
 * --all` of 25,000 sessions read every usage state (about a second) to print what it printed the
 * run before; while no record changed, that report is read back instead.
 * @module
 */
import { usageDigest } from "../core/digest/usage-digest.ts";
import type { StatsReport } from "../core/stats/aggregate-stats.ts";
import type { DateBound } from "../core/stats/date-bound.ts";
import type { StatsBy } from "../core/stats/time-buckets.ts";
import { VERSION_LINE } from "../version.ts";
import type { QueryEnv } from "./env.ts";
import { scopePlaces } from "./scope.ts";

/** Bumped when a report's shape or making changes within one version line (a build from source). */
const REPORT_FORM = 1;

/**
 * The machine's time zone as the runtime takes it, where that can be named: `TZ` when set, else
 * the zone file `/etc/localtime` links to (the runtime's own zone data gives its rules: they go
 * with the version). Undefined where it cannot (no link: a copied file tells no zone by its name).
 */
export async function machineZone(env: QueryEnv): Promise<string | undefined> {
  const tz = env.storage.env("TZ");
  if (tz !== undefined) return `TZ=${tz}`;
  const local = "/etc/localtime";
  const target = await env.fs.realPath(local).catch(() => local);
  return target === local ? undefined : `localtime=${target}`;
}

/** The sessions a kept answer is made from, as its key names them: the scope asked for, by the places it lists. */
export async function answerScope(env: QueryEnv, all: boolean): Promise<{ all: boolean; dirs: string[]; cwdFilter: string | null; processCwd: string }> {
  const places = await scopePlaces(env, all);
  return { all, dirs: places.dirs, cwdFilter: places.cwdFilter ?? null, processCwd: env.storage.processCwd };
}

/** What a report is asked with, its bounds and zone as read from its options. */
export interface StatsAsked {
  all: boolean;
  by: StatsBy;
  tz: string | undefined;
  since: DateBound | undefined;
  until: DateBound | undefined;
  breakdown: boolean;
  explain: boolean | string | undefined;
}

/**
 * The key of the report asked for, or undefined for one that is not kept: with the entries behind
 * its figures (as many as the usage rows), or in a zone that cannot be named.
 */
export async function statsAnswerKey(env: QueryEnv, asked: StatsAsked): Promise<string | undefined> {
  if (asked.explain !== undefined && asked.explain !== false) return undefined;
  const zone = asked.tz !== undefined ? `tz=${asked.tz}` : await machineZone(env);
  if (zone === undefined) return undefined;
  const scope = await answerScope(env, asked.all);
  const report = { by: asked.by, zone, since: asked.since ?? null, until: asked.until ?? null, breakdown: asked.breakdown };
  return JSON.stringify(["stats", REPORT_FORM, VERSION_LINE, usageDigest.version, scope, report]);
}

/**
 * A report as kept: its JSON, when reading that back gives the same report (every number finite:
 * JSON has no other), else undefined.
 */
export function keptReport(report: unknown): string | undefined {
  let finite = true;
  const body = JSON.stringify(report, (_key, value) => {
    if (typeof value === "number" && !Number.isFinite(value)) finite = false;
    return value;
  });
  return finite ? body : undefined;
}

/** A kept report back, or undefined when its text is not one (then it is made again). */
export function readReport(body: string): StatsReport | undefined {
  try {
    const report = JSON.parse(body);
    return report !== null && typeof report === "object" && Array.isArray(report.rows) && typeof report.totals === "object" && typeof report.copies === "object" ? report : undefined;
  } catch {
    return undefined;
  }
}
