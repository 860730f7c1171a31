/**
 * `stats`: tokens and cost grouped by hour, day, week, month, session, model or project. Every usage
 * entry is counted once, for the session it first appeared in, however many forks and clones
 * copied it; `--explain` lists the entries behind each figure.
 * @module
 */
import type { UsageTotals } from "../../core/info/usage-totals.ts";
import type { StatsReport } from "../../core/stats/aggregate-stats.ts";
import type { StatsBy } from "../../core/stats/time-buckets.ts";
import { tildePath } from "../../core/storage/paths.ts";
import { STATS_BY, type StatsResult, usageStats } from "../../query/stats.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { groupDigits } from "../../render/numbers.ts";
import { type FitColumn, fitTable } from "../output/fit-table.ts";
import { oneLine } from "../../render/control-chars.ts";

const HEADINGS: Record<StatsBy, string> = { hour: "Hour", day: "Day", week: "Week", month: "Month", session: "Session", model: "Model", project: "Project" };

const n = groupDigits;
const usd = (value: number) => `$${value.toFixed(3)}`;
const cells = (t: UsageTotals) => [n(t.input), n(t.output), n(t.cacheRead), n(t.cacheWrite), n(t.totalTokens), usd(t.cost.total)];

function printReport(ctx: CliContext, report: StatsReport, by: StatsBy, labels: StatsResult["labels"]): void {
  const c = ctx.color;
  const home = ctx.deps.storage.home;
  const byId = new Map(labels?.sessions.map((s) => [s.id, s]));
  // Unique among every project's sessions: a printed id names one session from any directory.
  const short = labels?.shortIds ?? new Map<string, string>();
  const label = (key: string) =>
    oneLine(by === "project" ? tildePath(key, home) : by === "session" ? `${short.get(key)}  ${byId.get(key)?.name ?? tildePath(byId.get(key)?.cwd ?? "", home)}` : key);
  const rows: string[][] = [[HEADINGS[by], "Input", "Output", "Cache read", "Cache write", "Tokens", "Cost", "Sessions"]];
  const styles: ((s: string) => string)[] = [c.bold];
  for (const row of report.rows) {
    rows.push([label(row.key), ...cells(row), n(row.sessions)]);
    styles.push((s) => s);
    for (const model of row.models ?? []) {
      rows.push([`  ${oneLine(model.key)}`, ...cells(model), ""]);
      styles.push(c.dim);
    }
  }
  rows.push(["Total", ...cells(report.totals), ""]);
  styles.push(c.bold);
  // On a narrow terminal the cache columns go first, then input and output: tokens and cost stay.
  const drops = [2, 3, 4, 5, undefined, undefined, 1];
  const columns: FitColumn[] = [{ flex: true, min: 28 }, ...drops.map((drop) => ({ right: true, drop }))];
  fitTable(rows, columns, ctx.width).lines.forEach((line, i) => ctx.out(styles[i](line)));
  if (report.copies.entries > 0) {
    ctx.out(c.dim(`Counted once: ${n(report.copies.entries)} more copies of these entries in forks and clones (${usd(report.copies.usage.cost.total)}) were not added again`));
  }
  for (const row of report.rows) {
    if (!row.entries) continue;
    ctx.out("");
    ctx.out(c.bold(`${label(row.key)}: ${n(row.entries.length)} entries`));
    for (const e of row.entries) {
      const also = e.copies > 0 ? c.dim(`  (also in ${e.copies} other file${e.copies === 1 ? "" : "s"})`) : "";
      ctx.out(`  ${e.timestamp ?? "?"}  ${e.sessionId}  ${e.entryId ?? "-"}  ${e.source}  ${oneLine(e.model)}  ${n(e.totalTokens)} tokens  ${usd(e.cost.total)}${also}`);
    }
  }
}

/** `pi-session stats`. */
export const statsCommand: CommandSpec = {
  name: "stats",
  checksLater: true,
  summary: "Tokens and cost by hour, day, week, month, session, model or project, counting forked entries once",
  options: [
    { flags: "-a, --all", description: "every project (default: the sessions of this directory)" },
    { flags: "--by <group>", description: "how to group rows", choices: [...STATS_BY], default: "day" },
    { flags: "--since <date>", description: "from this day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d, 12h, 2w)" },
    { flags: "--until <date>", description: "up to and including this day or month, or before this ISO time" },
    { flags: "--tz <zone>", description: "time zone for hours, days, weeks and months (default: this machine's)" },
    { flags: "--breakdown", description: "per-model totals under each row (JSON: rows[].models); not with --by model" },
    { flags: "--explain [key]", description: "list the entries behind each row, or behind the row KEY (JSON: rows[].entries)" },
  ],
  examples: ["pi-session stats --all --by month", "pi-session stats --by model --since 30d --json", "pi-session stats --all --by day --tz UTC --explain 2025-06-01"],
  async run(ctx, _args, opts) {
    const by = String(opts.by) as StatsBy;
    const { value: report, labels } = await usageStats(ctx, {
      all: Boolean(opts.all),
      by,
      since: typeof opts.since === "string" ? opts.since : undefined,
      until: typeof opts.until === "string" ? opts.until : undefined,
      tz: typeof opts.tz === "string" ? opts.tz : undefined,
      breakdown: Boolean(opts.breakdown),
      explain: opts.explain === undefined ? undefined : opts.explain === true ? true : String(opts.explain),
      labels: !ctx.json,
    });
    if (ctx.json) {
      ctx.outJson(report);
      return report.rows.length ? 0 : 1; // found nothing: 1, as without --json (SPEC §4)
    }
    if (report.rows.length === 0) {
      ctx.note(opts.all ? "No usage found." : `No usage found for ${ctx.cwd}; try --all`);
      return 1;
    }
    printReport(ctx, report, by, labels);
    return 0;
  },
};
