/**
 * `files <path|glob>`: the sessions and entries that read, edited, wrote, listed or searched a
 * path (or anything under it, for a directory) or what a glob matches, from tool calls, bash
 * commands and the file lists of compactions and branch summaries; relative paths resolved
 * against each session's cwd.
 * @module
 */
import { tildePath } from "../../core/storage/paths.ts";
import { fileSessions } from "../../query/files.ts";
import type { CommandSpec } from "../command.ts";
import { oneLine } from "../../render/control-chars.ts";

/** `pi-session files <path|glob>`. */
export const filesCommand: CommandSpec = {
  name: "files",
  checksLater: true,
  summary: "Show which sessions and entries read, edited or wrote a file (or anything in a directory, or what a glob matches)",
  args: ["<path>"],
  options: [{ flags: "-a, --all", description: "search every project (default: the sessions of this directory)" }],
  notes: [
    "<path> may be a glob (quote it, so that the shell leaves it alone): * is any characters but /,",
    "? one character but /, ** a whole segment for any number of folders, {a,b} either one.",
    "It is matched against the whole absolute path each session used (relative globs start at the",
    "current directory); a path also counts when a folder above it matches, as for a plain folder.",
    "[ ] are plain characters. Exits 1 when no session touched the path.",
  ],
  examples: [
    "pi-session files src/parser.ts",
    "pi-session files ~/work/app/src --all",
    "pi-session files 'src/**/*.{ts,tsx}'",
    "pi-session files '/**/package.json' --all",
    "pi-session files package.json --json | jq '.[].path'",
  ],
  async run(ctx, [path], opts) {
    const { value: sessions, target, shortIds: short } = await fileSessions(ctx, { path, all: Boolean(opts.all), shortIds: !ctx.json });
    const home = ctx.deps.storage.home;
    if (ctx.json) {
      ctx.outJson(sessions);
      return sessions.length ? 0 : 1;
    }
    if (sessions.length === 0) {
      ctx.note(`No session touched ${tildePath(target, home)}${opts.all ? "" : "; try --all"}`);
      return 1;
    }
    const c = ctx.color;
    for (const [i, s] of sessions.entries()) {
      if (i > 0) ctx.out("");
      ctx.out(`${c.cyan(short!.get(s.id)!)}  ${c.bold(oneLine(s.name ?? tildePath(s.cwd, home)))}  ${c.dim(tildePath(s.path, home))}`);
      for (const r of s.refs) {
        const what = oneLine(r.command ?? r.path);
        ctx.out(`  ${c.dim(r.timestamp ?? "?")}  ${r.entryId ?? "-"}  ${r.op.padEnd(8)} ${what}`);
      }
    }
    return 0;
  },
};
