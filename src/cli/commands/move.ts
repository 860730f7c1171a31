/**
 * `move <old-cwd> <new-cwd>`: after a project folder is renamed, moves its sessions (and, unless
 * `--exact`, those of its subfolders) to the folders pi reads for the new paths and rewrites
 * their headers' `cwd`, so `pi -c` in the new folder finds them. In a flat custom session dir
 * the files stay and only their headers change. One line per file.
 * @module
 */
import { candidateFolders, type FoundSession, planMoves } from "../../core/move/mod.ts";
import { defaultSessionDir } from "../../core/storage/layout.ts";
import { joinPath, resolvePath } from "../../core/storage/paths.ts";
import { mapConcurrent, sessionFilesIn } from "../../session/list-sessions.ts";
import { readHeader } from "../../session/read-header.ts";
import type { CommandSpec } from "../command.ts";
import { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";
import { moveFile, type MoveResult } from "../move-file.ts";
import { oneLine } from "../../render/control-chars.ts";

/** The session files that may belong to `from` (or to `to`, for a move cut short). */
async function candidateFiles(ctx: CliContext, from: string, to: string, exact: boolean, flatDir: string | null): Promise<string[]> {
  if (flatDir !== null) return sessionFilesIn(ctx.fs, flatDir);
  const root = joinPath(ctx.agentDir, "sessions");
  const folders = (await ctx.fs.list(root).catch(() => [])).filter((e) => e.isDirectory).map((e) => e.name);
  const files = await mapConcurrent(candidateFolders(folders, from, to, exact), 8, (name) => sessionFilesIn(ctx.fs, joinPath(root, name)));
  return files.flat();
}

async function foundSessions(ctx: CliContext, files: string[]): Promise<FoundSession[]> {
  const headers = await mapConcurrent(files, 16, (path) => readHeader(ctx.fs, path));
  const found: FoundSession[] = [];
  files.forEach((path, i) => {
    const h = headers[i];
    if (h === null || typeof h.cwd !== "string" || h.cwd === "") return;
    found.push({ path, cwd: h.cwd, ...(typeof h.parentSession === "string" && { parentSession: h.parentSession }) });
  });
  return found;
}

function describe(r: MoveResult): string {
  const cwd = `cwd ${r.oldCwd} -> ${r.newCwd}`;
  const extras = [cwd, r.backup && `backup ${r.backup}`, r.carriedLines && `${r.carriedLines} appended line${r.carriedLines === 1 ? "" : "s"} kept`]
    .filter(Boolean).join("; ");
  switch (r.action) {
    case "moved":
      return `moved: ${r.from} -> ${r.to} (${extras})`;
    case "would-move":
      return `would move: ${r.from} -> ${r.to} (${extras})`;
    case "rewritten":
      return `rewrote: ${r.from} (${extras})`;
    case "would-rewrite":
      return `would rewrite: ${r.from} (${extras})`;
    default:
      return `${r.action}: ${r.from}: ${r.message}`;
  }
}

function summary(results: MoveResult[], dryRun: boolean, to: string): string {
  const done = results.filter((r) => ["moved", "rewritten", "would-move", "would-rewrite"].includes(r.action)).length;
  const refused = results.filter((r) => r.action === "refused").length;
  const failed = results.filter((r) => r.action === "error").length;
  const parts = [`${done} session${done === 1 ? "" : "s"} ${dryRun ? "to move" : "moved"}`];
  if (refused > 0) parts.push(`${refused} refused`);
  if (failed > 0) parts.push(`${failed} failed`);
  const after = dryRun ? " (dry run: nothing was written)" : done > 0 ? `; \`pi -c\` in ${to} finds ${done === 1 ? "it" : "them"}` : "";
  return parts.join(", ") + after;
}

/** `pi-session move <old-cwd> <new-cwd> [--dry-run] [--exact]` */
export const moveCommand: CommandSpec = {
  name: "move",
  summary: "After renaming a project folder, move its sessions to the new folder's and rewrite their cwd",
  args: ["<old-cwd>", "<new-cwd>"],
  options: [
    { flags: "-n, --dry-run", description: "say what would be moved, write nothing" },
    { flags: "--exact", description: "only the sessions of <old-cwd> itself, not those of its subfolders" },
  ],
  examples: ["pi-session move ~/code/app ~/code/app-v2 --dry-run", "pi-session move ../old-name . --json"],
  async run(ctx, [oldArg, newArg], opts) {
    const dryRun = Boolean(opts.dryRun);
    const exact = Boolean(opts.exact);
    const base = ctx.deps.storage.processCwd;
    const from = resolvePath(base, oldArg);
    const to = resolvePath(base, newArg);
    if (from === to) throw new CliError("bad-usage", `The old and new folders are the same: ${from}`, "Pass the folder's old path, then its new one");
    if (to.startsWith(from + "/") || from === "/") {
      throw new CliError("bad-usage", `${to} is inside ${from}: a folder cannot be renamed into itself`, "Pass the folder's old path, then its new one");
    }
    const stat = await ctx.fs.stat(to).catch(() => null);
    if (!stat?.isDirectory) ctx.notice(`${to} is not a folder (yet): pi finds the sessions once you work there`);
    // Project settings travel with the renamed folder, so the new folder's settings say where both live.
    const choice = await new CliContext(ctx.deps, { ...ctx.options, cwd: to }).sessionDir();
    const flatDir = choice.custom ? choice.dir : null;
    const files = await candidateFiles(ctx, from, to, exact, flatDir);
    const folderFor = flatDir !== null ? null : (cwd: string) => defaultSessionDir(cwd, ctx.agentDir, base);
    const moves = planMoves(await foundSessions(ctx, files), { from, to, exact, folderFor });
    if (moves.length === 0) {
      if (ctx.json) ctx.outJson([]);
      ctx.note(`No sessions of ${from}${exact ? "" : " or its subfolders"} found in ${flatDir ?? joinPath(ctx.agentDir, "sessions")}`);
      return 1;
    }
    const results: MoveResult[] = [];
    for (const move of moves) {
      const result = await moveFile(ctx.fs, move, dryRun);
      results.push(result);
      if (ctx.json) continue;
      if (result.action === "refused" || result.action === "error") {
        ctx.deps.stderr(`${ctx.errColor.red("error:")} ${oneLine(describe(result))}\n`);
        continue;
      }
      ctx.out(oneLine(describe(result)));
      if (result.message) ctx.warn(result.message);
    }
    if (ctx.json) ctx.outJson(results.map(({ exitCode: _code, ...shown }) => shown));
    else ctx.note(summary(results, dryRun, to));
    const codes = results.map((r) => r.exitCode);
    return codes.includes(3) ? 3 : Math.max(0, ...codes);
  },
};
