/**
 * `du`: how much disk the sessions take, per project, and which sessions are the largest, so
 * that `prune --larger-than` or `delete` can be aimed.
 * @module
 */
import { tildePath } from "../../core/storage/paths.ts";
import type { CommandSpec } from "../command.ts";
import { formatBytes } from "../output/bytes.ts";
import { oneLine } from "../../render/control-chars.ts";
import { type FitColumn, fitTable } from "../output/fit-table.ts";
import { groupDigits } from "../../render/numbers.ts";
import { diskUse } from "../../query/du.ts";

/** One project's share. */
export const duCommand: CommandSpec = {
  name: "du",
  checksLater: true,
  summary: "Disk use of the sessions: per project, and the largest sessions",
  options: [
    { flags: "--limit <n>", description: "how many of the largest sessions to show", default: "10" },
    { flags: "--project <dir>", description: "only the sessions whose cwd is this folder" },
  ],
  examples: ["pi-session du", "pi-session du --limit 30 --project .", "pi-session du --json | jq '.projects[0]'"],
  async run(ctx, _args, opts) {
    const { value, largest, shortIds } = await diskUse(ctx, { limit: String(opts.limit), project: typeof opts.project === "string" ? opts.project : undefined });
    const { totalBytes, sessionCount, projects } = value;
    if (ctx.json) {
      ctx.outJson(value);
      return sessionCount ? 0 : 1; // found nothing: 1, as without --json (SPEC §4)
    }
    if (sessionCount === 0) {
      ctx.note("No sessions found.");
      return 1;
    }
    const c = ctx.color;
    const home = ctx.deps.storage.home;
    const size = (bytes: number) => formatBytes(bytes);
    const rows = [["Project", "Sessions", "Size"], ...projects.map((p) => [oneLine(tildePath(p.cwd, home) || "(no cwd)"), groupDigits(p.sessions), size(p.bytes)])];
    rows.push(["Total", groupDigits(sessionCount), size(totalBytes)]);
    const columns: FitColumn[] = [{ flex: true }, { right: true }, { right: true }];
    fitTable(rows, columns, ctx.width).lines.forEach((line, i) => ctx.out(i === 0 || i === rows.length - 1 ? c.bold(line) : line));
    if (largest.length === 0) return 0;
    ctx.out("");
    ctx.out(c.bold(`Largest sessions`));
    // Unique among every session known, so that a printed prefix resolves back to its session.
    const big = largest.map((s) => [size(s.bytes), oneLine(shortIds.get(s.id) ?? s.id), oneLine(tildePath(s.cwd, home)), oneLine(s.name ?? s.firstMessage)]);
    const bigColumns: FitColumn[] = [{ right: true }, { style: c.cyan }, { style: c.dim, drop: 1 }, { flex: true, min: 20 }];
    for (const line of fitTable(big, bigColumns, ctx.width).lines) ctx.out(line);
    return 0;
  },
};
