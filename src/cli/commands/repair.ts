/**
 * `repair`: fixes the damage `check` finds that can be fixed without guessing (a BOM, CRLF,
 * NUL padding, records glued on one line or cut off by a crash, a missing final newline), each
 * change listed as `PATH:LINE: [kind] message`; what needs a decision is listed with the command
 * line of its named fix. Atomic, with a backup; cut-off bytes go to `<file>.rejected`.
 * @module
 */
import type { Judgement } from "../../core/repair/mod.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { oneLine } from "../../render/control-chars.ts";
import { repairFile, type RepairResult } from "../repair-file.ts";
import { collectTargets } from "../check-targets.ts";

/** A word the shell reads back as it is. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line that applies a judgement's named fix. */
function fixCommand(path: string, j: Judgement): string | null {
  return j.fix === null ? null : `pi-session repair ${shellQuote(path)} ${j.fix}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function headline(r: RepairResult): string {
  const extras = [
    r.backup && `backup ${r.backup}`,
    r.rejected && `set aside in ${r.rejected}`,
    r.carriedLines && `${plural(r.carriedLines, "line")} appended meanwhile kept at the end`,
  ].filter(Boolean);
  const tail = extras.length > 0 ? ` (${extras.join("; ")})` : "";
  if (r.action === "repaired") return `repaired: ${r.path}${tail}`;
  if (r.action === "would-repair") return `would repair: ${r.path}${tail}`;
  return `nothing to repair: ${r.path}`;
}

function printResult(ctx: CliContext, r: RepairResult): void {
  const c = ctx.color;
  if (r.action === "not-a-session" && r.exitCode === 0) {
    ctx.note(`skipped: ${r.path} (not a pi session)`);
    return;
  }
  if (r.action === "error" || r.action === "not-a-session") {
    const what = r.message?.includes(r.path) ? r.message : `${r.path}: ${r.message}`;
    ctx.deps.stderr(`${ctx.errColor.red("error:")} ${oneLine(what ?? "")}\n`);
    return;
  }
  ctx.out(headline(r));
  if (r.message) ctx.warn(r.message);
  const where = (line: number) => `  ${c.magenta(r.path)}${line > 0 ? ":" + c.green(String(line)) : ""}:`;
  for (const change of r.changes) {
    ctx.out(`${where(change.line)} ${c.cyan(`[${change.kind}]`)} ${oneLine(change.message)}`);
  }
  for (const left of r.left) {
    ctx.out(`${where(left.line)} ${c.red(`[${left.code}]`)} ${oneLine(left.message)}; left as it is (not a record repair can recover)`);
  }
  for (const j of r.judgements) {
    const fix = fixCommand(r.path, j);
    const how = fix === null ? "needs a decision; no automatic fix" : `to fix: ${fix}`;
    ctx.out(`${where(j.line)} ${c.yellow(`[${j.code}]`)} ${oneLine(j.message)}; ${how}`);
  }
}

function summary(results: RepairResult[], dryRun: boolean): string {
  const count = (action: RepairResult["action"]) => results.filter((r) => r.action === action).length;
  const parts = [
    dryRun ? `${count("would-repair")} to repair` : `${count("repaired")} repaired`,
    `${count("nothing-to-repair")} with nothing to repair`,
  ];
  const open = results.filter((r) => r.left.length > 0 || r.judgements.length > 0).length;
  if (open > 0) parts.push(`${plural(open, "file")} with problems left for a decision`);
  const failed = results.filter((r) => r.exitCode > 1).length;
  if (failed > 0) parts.push(`${failed} failed`);
  return `${parts.join(", ")}${dryRun ? " (dry run: nothing was written)" : ""}`;
}

/** `pi-session repair <ref|dir>... [--dry-run] [--relink-orphans] [--break-cycles]` */
export const repairCommand: CommandSpec = {
  name: "repair",
  summary: "Fix damage that needs no guess (glued or cut-off records, NUL padding, BOM, CRLF), atomically: backup FILE.repair.bak, cut-off bytes in FILE.rejected",
  args: ["<target...>"],
  options: [
    {
      flags: "-n, --dry-run",
      description: "say what would be changed, write nothing. Exit 0 when every file is (or would be) sound, 1 when a line or a judgement is left for a person, 3 when a named file is unreadable or not a session",
    },
    {
      flags: "--relink-orphans",
      description: "also give each entry whose parent is not in the file the entry before it (in file order) as its parent",
    },
    {
      flags: "--break-cycles",
      description: "also break each parent cycle: the entry that closes it (the first whose parent is not before it) gets the entry before it as its parent",
    },
  ],
  examples: ["pi-session repair @ --dry-run", "pi-session repair ~/.pi/agent/sessions --json", "pi-session repair a.jsonl --relink-orphans"],
  async run(ctx, inputs, opts) {
    const options = { dryRun: Boolean(opts.dryRun), relinkOrphans: Boolean(opts.relinkOrphans), breakCycles: Boolean(opts.breakCycles) };
    const { targets, failed } = await collectTargets(ctx, inputs);
    const results: RepairResult[] = [];
    for await (const { path, named } of targets) {
      const result = await repairFile(ctx.fs, path, options);
      // A file found in a folder that is not a session is passed over; one named is an error.
      if (result.action === "not-a-session" && !named) result.exitCode = 0;
      results.push(result);
      if (!ctx.json) printResult(ctx, result);
    }
    if (ctx.json) {
      ctx.outJson(results.map(({ exitCode: _code, judgements, ...shown }) => ({
        ...shown,
        judgements: judgements.map((j) => ({ ...j, fixCommand: fixCommand(shown.path, j) })),
      })));
    } else if (results.length > 0) ctx.note(summary(results, options.dryRun));
    if (failed > 0) return failed;
    const codes = results.map((r) => r.exitCode);
    if (codes.includes(3)) return 3;
    return results.length === 0 ? 1 : Math.max(0, ...codes);
  },
};
