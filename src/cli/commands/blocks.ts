/**
 * `blocks`: usage in 5-hour windows, as ccusage shows them: each window's tokens and cost, and
 * for the window still open its burn rate and where it will end at that rate.
 * @module
 */
import { localMinutes } from "../../core/stats/time-buckets.ts";
import type { UsageBlock } from "../../core/stats/usage-blocks.ts";
import { usageBlockReport } from "../../query/blocks.ts";
import { timeZoneOption } from "../../query/date-options.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { type FitColumn, fitTable } from "../output/fit-table.ts";
import { oneLine } from "../../render/control-chars.ts";
import { groupDigits as n } from "../../render/numbers.ts";

/** Dollars as `stats` prints them. */
const usd = (value: number) => `$${value.toFixed(3)}`;

/** `2h 05m`. */
function span(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60e3));
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/** A model key without its provider, which the table has no room for (`Tools/summaries` stays whole). */
const modelName = (key: string) => (key.startsWith("Tools/") ? key : key.slice(key.indexOf("/") + 1));

function printBlocks(ctx: CliContext, blocks: UsageBlock[], tz: string | undefined): void {
  const c = ctx.color;
  const at = localMinutes(tz);
  const now = ctx.deps.now().getTime();
  const rows = [["Start", "Activity", "Models", "Tokens", "Cost", "Sessions"]];
  const styles: ((s: string) => string)[] = [c.bold];
  for (const b of blocks) {
    const start = Date.parse(b.start);
    const status = b.active ? `${span(Date.parse(b.end) - now)} left` : span(Date.parse(b.lastActivity) - Date.parse(b.firstActivity));
    rows.push([at(start), status, oneLine(b.models.map(modelName).join(", ")), n(b.totalTokens), usd(b.cost.total), n(b.sessions)]);
    styles.push(b.active ? c.green : (s) => s);
  }
  const columns: FitColumn[] = [{}, {}, { flex: true, min: 12, drop: 2 }, { right: true }, { right: true }, { right: true, drop: 1 }];
  fitTable(rows, columns, ctx.width).lines.forEach((line, i) => ctx.out(styles[i](line)));
  const active = blocks.find((b) => b.active);
  if (!active) return;
  const end = at(Date.parse(active.end)).slice(11);
  ctx.out("");
  ctx.out(c.bold(`Active block since ${at(Date.parse(active.start)).slice(11)}, ends at ${end} (${span(Date.parse(active.end) - now)} left)`));
  if (active.burnRate && active.projection) {
    ctx.out(`  Burn rate: ${n(active.burnRate.tokensPerMinute)} tokens/min, ${usd(active.burnRate.costPerHour)}/h`);
    ctx.out(`  Projected at ${end}: ${n(active.projection.totalTokens)} tokens, ${usd(active.projection.cost)}`);
  } else {
    ctx.out(c.dim("  Burn rate: not yet (one moment of activity so far)"));
  }
}

/** `pi-session blocks [--all] [--since D] [--active] [--tz Z]` */
export const blocksCommand: CommandSpec = {
  name: "blocks",
  checksLater: true,
  summary: "Usage in 5-hour blocks (as ccusage shows them), with the active block's burn rate and projection",
  options: [
    { flags: "-a, --all", description: "every project (default: the sessions of this directory)" },
    { flags: "--since <date>", description: "blocks from this day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d, 12h)" },
    { flags: "--active", description: "only the block that is still open" },
    { flags: "--tz <zone>", description: "time zone for the times shown (default: this machine's)" },
  ],
  examples: ["pi-session blocks --all --since 2d", "pi-session blocks --all --active", "pi-session blocks --all --json | jq '.blocks[-1].burnRate'"],
  async run(ctx, _args, opts) {
    const tz = timeZoneOption(opts.tz);
    const { value } = await usageBlockReport(ctx, {
      all: Boolean(opts.all),
      since: typeof opts.since === "string" ? opts.since : undefined,
      active: Boolean(opts.active),
      tz,
    });
    const { blocks } = value;
    if (ctx.json) {
      ctx.outJson(value);
      return blocks.length ? 0 : 1; // found nothing: 1, as without --json (SPEC §4)
    }
    if (blocks.length === 0) {
      const what = opts.active ? "No active block" : "No usage found";
      ctx.note(opts.all ? `${what}.` : `${what} for ${ctx.cwd}; try --all`);
      return 1;
    }
    printBlocks(ctx, blocks, tz);
    return 0;
  },
};
