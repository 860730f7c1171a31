/**
 * `prune`: moves old or large sessions to the trash in one go, by the same rules and code as
 * `delete` (asks first on a terminal, `--yes` elsewhere), with `--dry-run` to see the list.
 * @module
 */
import { type DateBound, onOrAfter, parseDateBound } from "../../core/stats/date-bound.ts";
import { localDays } from "../../core/stats/time-buckets.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { confirmDelete, type DeleteResult, deleteSessions } from "../delete-sessions.ts";
import { CliError } from "../errors.ts";
import { formatBytes, parseBytes } from "../output/bytes.ts";
import { type SizedSession, sizedSessions } from "../../query/sized-sessions.ts";

function olderThan(ctx: CliContext, value: unknown): DateBound | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return parseDateBound(value, ctx.deps.now());
  } catch (error) {
    throw new CliError("bad-option", `--older-than: ${(error as Error).message}`, "Pass e.g. --older-than 90d or --older-than 2025-01-01");
  }
}

function largerThan(value: unknown): number | undefined {
  if (typeof value !== "string") return undefined;
  const bytes = parseBytes(value);
  if (bytes === undefined) throw new CliError("bad-option", `--larger-than: cannot read the size "${value}"`, "Pass e.g. --larger-than 50MB (units B, KB, MB, GB: powers of 1024)");
  return bytes;
}

/** The JSON of one pruned (or, with --dry-run, matched) session. */
function sessionJson(s: SizedSession, result?: DeleteResult) {
  const json = { path: s.path, id: s.id, cwd: s.cwd, bytes: s.bytes, modified: s.modified.toISOString(), action: result?.action ?? "would-trash" };
  return { ...json, ...(result?.trashPath ? { trashPath: result.trashPath } : {}), ...(result?.message ? { message: result.message } : {}) };
}

/** `pi-session prune --older-than 90d | --larger-than 50MB [--project P] [--dry-run] [--yes]` */
export const pruneCommand: CommandSpec = {
  name: "prune",
  summary: "Move sessions last changed before a time, or larger than a size, to the trash",
  options: [
    { flags: "--older-than <age>", description: "last modified before this span back (90d, 12h, 2w) or date (YYYY-MM-DD)" },
    { flags: "--larger-than <size>", description: "files larger than this (50MB, 1.5GB; powers of 1024)" },
    { flags: "--project <dir>", description: "only the sessions whose cwd is this folder (default: every project)" },
    { flags: "-n, --dry-run", description: "list what would go, move nothing" },
    { flags: "-y, --yes", description: "do not ask for confirmation" },
  ],
  examples: ["pi-session prune --older-than 90d --dry-run", "pi-session prune --larger-than 50MB --project . --yes", "pi-session prune --older-than 2025-01-01 --json --yes"],
  async run(ctx, _args, opts) {
    const before = olderThan(ctx, opts.olderThan);
    const minBytes = largerThan(opts.largerThan);
    if (before === undefined && minBytes === undefined) {
      throw new CliError("bad-option", "prune needs --older-than or --larger-than", "Pass e.g. --older-than 90d, or --larger-than 50MB (both: sessions that match both)");
    }
    const day = localDays();
    const sessions = (await sizedSessions(ctx, typeof opts.project === "string" ? opts.project : undefined)).sessions
      .filter((s) => before === undefined || !onOrAfter(before, s.modified.getTime(), day(s.modified.getTime())))
      .filter((s) => minBytes === undefined || s.bytes > minBytes)
      .sort((a, b) => a.modified.getTime() - b.modified.getTime() || (a.path < b.path ? -1 : 1));
    const bytes = sessions.reduce((n, s) => n + s.bytes, 0);
    const dryRun = Boolean(opts.dryRun);
    if (sessions.length === 0) {
      if (ctx.json) ctx.outJson({ dryRun, bytes: 0, sessions: [] });
      ctx.note("No sessions match");
      return 1;
    }
    if (dryRun) {
      if (ctx.json) ctx.outJson({ dryRun, bytes, sessions: sessions.map((s) => sessionJson(s)) });
      else for (const s of sessions) ctx.out(`would move to trash: ${s.path} (${formatBytes(s.bytes)}, ${s.modified.toISOString().slice(0, 10)})`);
      ctx.note(`${sessions.length} session(s), ${formatBytes(bytes)}; nothing moved (dry run)`);
      return 0;
    }
    const paths = sessions.map((s) => s.path);
    if (!opts.yes && !(await confirmDelete(ctx, paths, false))) {
      ctx.note("Nothing deleted");
      return 1;
    }
    const { results, exitCode } = await deleteSessions(ctx, paths, false);
    if (ctx.json) ctx.outJson({ dryRun, bytes, sessions: sessions.map((s, i) => sessionJson(s, results[i])) });
    else {
      const moved = sessions.filter((_, i) => results[i].action !== "failed");
      ctx.note(`${moved.length} session(s) moved to the trash, ${formatBytes(moved.reduce((n, s) => n + s.bytes, 0))}`);
    }
    return exitCode;
  },
};
