/**
 * `migrate`: rewrites version 1 and 2 session files as version 3, atomically, keeping the
 * original as `FILE.v<N>.bak`. Takes session references and directories (the sessions layout).
 * @module
 */
import { joinPath, resolvePath } from "../../core/storage/paths.ts";
import { sessionFilesIn } from "../../session/list-sessions.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { migrateFile, type MigrateResult } from "../migrate-file.ts";
import { printable } from "../../render/control-chars.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";

/** The `.jsonl` files of `dir` and of its direct subfolders (`sessions/--cwd--/*.jsonl`). */
async function filesUnder(ctx: CliContext, dir: string): Promise<string[]> {
  const files = await sessionFilesIn(ctx.fs, dir);
  for (const entry of await ctx.fs.list(dir)) {
    if (entry.isDirectory) for (const file of await sessionFilesIn(ctx.fs, joinPath(dir, entry.name))) files.push(file);
  }
  return files.sort();
}

/** Every file the targets name, in order, each once. A target that is a directory wins over an id. */
async function collectFiles(ctx: CliContext, targets: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const target of targets) {
    const asPath = resolvePath(ctx.deps.storage.processCwd, target);
    const stat = target === "" ? null : await ctx.fs.stat(asPath);
    const found = stat?.isDirectory ? await filesUnder(ctx, asPath) : [await resolveSessionRef(ctx, target)];
    if (found.length === 0) ctx.note(`No .jsonl files in ${asPath}`);
    for (const file of found) if (!files.includes(file)) files.push(file);
  }
  return files;
}

function describe(r: MigrateResult): string {
  const versions = `v${r.fromVersion} -> v${r.toVersion}`;
  const backup = r.backup ? `backup ${r.backup}` : "no backup";
  const extra = r.message ? `; ${r.message}` : "";
  if (r.action === "migrated") return `migrated: ${r.path} (${versions}, ${backup}${extra})`;
  if (r.action === "would-migrate") return `would migrate: ${r.path} (${versions}, ${backup}${extra})`;
  if (r.message === `already v${r.fromVersion}`) return `already v${r.fromVersion}: ${r.path}`;
  return `skipped: ${r.path} (${r.message})`;
}

function summary(results: MigrateResult[], dryRun: boolean): string {
  const count = (action: MigrateResult["action"]) => results.filter((r) => r.action === action).length;
  const parts = [
    dryRun ? `${count("would-migrate")} to migrate` : `${count("migrated")} migrated`,
    `${count("skipped")} left as they are`,
  ];
  if (count("error") > 0) parts.push(`${count("error")} failed`);
  return `${parts.join(", ")}${dryRun ? " (dry run: nothing was written)" : ""}`;
}

/** `pi-session migrate <ref|dir>... [--dry-run] [--no-backup] [--force]` */
export const migrateCommand: CommandSpec = {
  name: "migrate",
  summary: "Rewrite old (v1, v2) session files as v3, atomically, keeping a .bak of each",
  args: ["<target...>"],
  options: [
    { flags: "-n, --dry-run", description: "say what would be done, write nothing" },
    { flags: "--no-backup", description: "do not keep the original as FILE.v<N>.bak" },
    { flags: "--force", description: "migrate even if lines that cannot be parsed would be dropped" },
  ],
  examples: ["pi-session migrate ~/.pi/agent/sessions --dry-run", "pi-session migrate @", "pi-session migrate old.jsonl --json"],
  async run(ctx, targets, opts) {
    const options = { dryRun: Boolean(opts.dryRun), backup: opts.backup !== false, force: Boolean(opts.force) };
    const files = await collectFiles(ctx, targets);
    const results: MigrateResult[] = [];
    for (const path of files) {
      const result = await migrateFile(ctx.fs, path, options);
      results.push(result);
      if (ctx.json) continue;
      if (result.action === "error") {
        const what = result.message?.includes(path) ? result.message : `${path}: ${result.message}`;
        ctx.deps.stderr(`${ctx.errColor.red("error:")} ${printable(what)}\n`);
      }
      else ctx.out(describe(result));
    }
    if (ctx.json) ctx.outJson(results.map(({ exitCode: _code, ...shown }) => shown));
    else if (files.length > 0) ctx.note(summary(results, options.dryRun));
    if (files.length === 0) return 1;
    const codes = results.map((r) => r.exitCode);
    return codes.includes(3) ? 3 : codes.reduce((a, b) => Math.max(a, b), 0);
  },
};
