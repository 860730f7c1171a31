/**
 * `du`: how much disk the sessions take, per project, and which sessions are the largest, so
 * that `prune --larger-than` or `delete` can be aimed.
 * @module
 */
import { tildePath } from "../../core/storage/paths.ts";
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";
import { formatBytes } from "../output/bytes.ts";
import { oneLine } from "../../render/control-chars.ts";
import { type FitColumn, fitTable } from "../output/fit-table.ts";
import { groupDigits } from "../../render/numbers.ts";
import { type SizedSession, sizedSessions } from "../../query/sized-sessions.ts";
import { uniquePrefixesAmong } from "../../render/unique-prefix.ts";

/** One project's share. */
interface ProjectUse {
  cwd: string;
  sessions: number;
  bytes: number;
}

function byProject(sessions: SizedSession[]): ProjectUse[] {
  const projects = new Map<string, ProjectUse>();
  for (const s of sessions) {
    let p = projects.get(s.cwd);
    if (!p) projects.set(s.cwd, p = { cwd: s.cwd, sessions: 0, bytes: 0 });
    p.sessions++;
    p.bytes += s.bytes;
  }
  return [...projects.values()].sort((a, b) => b.bytes - a.bytes || (a.cwd < b.cwd ? -1 : 1));
}

/** `pi-session du [--limit N] [--project P]` */
export const duCommand: CommandSpec = {
  name: "du",
  summary: "Disk use of the sessions: per project, and the largest sessions",
  options: [
    { flags: "--limit <n>", description: "how many of the largest sessions to show", default: "10" },
    { flags: "--project <dir>", description: "only the sessions whose cwd is this folder" },
  ],
  examples: ["pi-session du", "pi-session du --limit 30 --project .", "pi-session du --json | jq '.projects[0]'"],
  async run(ctx, _args, opts) {
    const limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 0) throw new CliError("bad-option", `--limit must be a whole number, not "${opts.limit}"`, "Pass e.g. --limit 20");
    const { sessions, knownIds } = await sizedSessions(ctx, typeof opts.project === "string" ? opts.project : undefined);
    const projects = byProject(sessions);
    const largest = [...sessions].sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1)).slice(0, limit);
    const totalBytes = sessions.reduce((n, s) => n + s.bytes, 0);
    if (ctx.json) {
      ctx.outJson({
        totalBytes,
        sessionCount: sessions.length,
        projects,
        largest: largest.map((s) => ({ path: s.path, id: s.id, cwd: s.cwd, name: s.name ?? null, bytes: s.bytes, modified: s.modified.toISOString() })),
      });
      return sessions.length ? 0 : 1; // found nothing: 1, as without --json (SPEC §4)
    }
    if (sessions.length === 0) {
      ctx.note("No sessions found.");
      return 1;
    }
    const c = ctx.color;
    const home = ctx.deps.storage.home;
    const size = (bytes: number) => formatBytes(bytes);
    const rows = [["Project", "Sessions", "Size"], ...projects.map((p) => [oneLine(tildePath(p.cwd, home) || "(no cwd)"), groupDigits(p.sessions), size(p.bytes)])];
    rows.push(["Total", groupDigits(sessions.length), size(totalBytes)]);
    const columns: FitColumn[] = [{ flex: true }, { right: true }, { right: true }];
    fitTable(rows, columns, ctx.width).lines.forEach((line, i) => ctx.out(i === 0 || i === rows.length - 1 ? c.bold(line) : line));
    if (largest.length === 0) return 0;
    ctx.out("");
    ctx.out(c.bold(`Largest sessions`));
    // Unique among every session known, so that a printed prefix resolves back to its session.
    const short = uniquePrefixesAmong(largest.map((s) => s.id), knownIds);
    const big = largest.map((s) => [size(s.bytes), oneLine(short.get(s.id) ?? s.id), oneLine(tildePath(s.cwd, home)), oneLine(s.name ?? s.firstMessage)]);
    const bigColumns: FitColumn[] = [{ right: true }, { style: c.cyan }, { style: c.dim, drop: 1 }, { flex: true, min: 20 }];
    for (const line of fitTable(big, bigColumns, ctx.width).lines) ctx.out(line);
    return 0;
  },
};
