/**
 * `check`: validates session files (named, found by reference, or every session in a
 * directory) and lists each problem as `PATH:LINE: [code] message`, like a compiler or ripgrep.
 * Notes (an old format version, a summary from a branch not in the file) fail only with `--strict`.
 * @module
 */
import type { IssueCode } from "../../core/read/issue.ts";
import { SessionChecker } from "../../core/check/session-checker.ts";
import { collectTargets, type Target } from "../check-targets.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { describeError } from "../errors.ts";
import { collectGarbage } from "../../io/collect-garbage.ts";
import { GarbagePacer } from "../../io/garbage-pacer.ts";
import { oneLine } from "../../render/control-chars.ts";
import { readSessionFile } from "../../query/skim-ahead.ts";

/** Codes that are reported but do not make `check` fail unless `--strict`. */
const NOTE_CODES: ReadonlySet<IssueCode> = new Set(["legacy-version", "unknown-from-id"]);

interface Problem {
  path: string;
  line: number;
  entryId: string | null;
  code: IssueCode;
  message: string;
}

interface Checked {
  problems: Problem[];
  /** False when the file could not be read at all. */
  read: boolean;
  /** Named and unreadable or not a session: exit 3. */
  fatal: boolean;
}

/** Bytes read between two cheap collections: a long read leaves garbage faster than it is collected. */
const HINT_EVERY = 8 * 1024 * 1024;

async function checkFile(ctx: CliContext, { path, named, notAFile }: Target, pacer: GarbagePacer): Promise<Checked> {
  if (notAFile) {
    // The words every command that takes a path uses for a pipe (see resolveSessionRef).
    const message = `${path} is a pipe or a device, not a session file`;
    return { problems: [{ path, line: 0, entryId: null, code: "unreadable", message }], read: false, fatal: true };
  }
  let file;
  // Each entry is checked as it is read and not held (see SessionChecker).
  const checker = new SessionChecker();
  try {
    // A big file on two threads (see readSessionFile); every read counted by the run's pacer.
    file = await readSessionFile(ctx.fs, path, checker.readOptions, (bytes) => pacer.add(bytes));
  } catch (error) {
    const message = describeError(error).lines[0].replace(/^pi-session: /, "");
    return { problems: [{ path, line: 0, entryId: null, code: "unreadable", message }], read: false, fatal: true };
  }
  const problems = checker.issues(file).map((i): Problem => ({ path, line: i.line, entryId: i.entryId ?? null, code: i.code, message: i.message }));
  return { problems, read: true, fatal: named && file.notSession };
}

/** Files checked at once, and the bytes of files in flight at once (a bigger file is checked alone). */
const FILES_AT_ONCE = 8;
const BYTES_AT_ONCE = 64 * 1024 * 1024;

/**
 * Checks `targets` a few at a time, handing each result to `onChecked` in the order of
 * `targets`: a directory of any size is walked holding only the files in flight, and its
 * largest sessions are not read side by side.
 */
async function checkInOrder(ctx: CliContext, targets: AsyncIterable<Target>, onChecked: (checked: Checked) => void): Promise<void> {
  const inFlight: { size: number; checked: Promise<Checked> }[] = [];
  const pacer = new GarbagePacer({ everyAmount: HINT_EVERY, amountYoung: true });
  let bytes = 0;
  const settleFirst = async () => {
    const first = inFlight.shift()!;
    bytes -= first.size;
    onChecked(await first.checked);
    // A big file's tables and the worker that read it given back before the files after it
    // are read side by side (25,000 sessions, the 1.2 GB one among them: peak 116 MB -> 109 MB,
    // medians of 3 by hand).
    if (first.size > BYTES_AT_ONCE) collectGarbage();
  };
  for await (const target of targets) {
    const size = target.notAFile ? 0 : (await ctx.fs.stat(target.path).catch(() => null))?.size ?? 0;
    while (inFlight.length >= FILES_AT_ONCE || (inFlight.length > 0 && bytes + size > BYTES_AT_ONCE)) await settleFirst();
    // A big file is checked alone, in the memory the files before it left.
    if (size > BYTES_AT_ONCE) collectGarbage();
    bytes += size;
    inFlight.push({ size, checked: checkFile(ctx, target, pacer) });
  }
  while (inFlight.length > 0) await settleFirst();
}

function formatProblem(ctx: CliContext, p: Problem, note: boolean): string {
  const c = ctx.color;
  const where = c.magenta(p.path) + (p.line > 0 ? ":" + c.green(String(p.line)) : "") + ":";
  const code = note ? c.cyan(`[${p.code}]`) : c.red(`[${p.code}]`);
  // Ids and values quoted in messages come from the file: no escape sequence reaches the terminal.
  return `${where} ${code} ${oneLine(p.message)}${p.entryId !== null ? c.dim(` (entry ${oneLine(p.entryId)})`) : ""}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `pi-session check <ref|dir>... [--strict]`. */
export const checkCommand: CommandSpec = {
  name: "check",
  summary: "Validate session files: every problem with file, line and a plain explanation",
  args: ["<ref|dir...>"],
  options: [
    {
      flags: "--strict",
      description: "also fail on notes. Every problem fails (exit 1) except the notes legacy-version (an old format: run `pi-session migrate`) and unknown-from-id (a summary of a branch not in the file, normal in forks); a named file that is unreadable or not a session exits 3",
    },
  ],
  examples: ["pi-session check @", "pi-session check ~/.pi/agent/sessions --json | jq '.problems[].code'", "pi-session check --strict a.jsonl b.jsonl"],
  async run(ctx, inputs, opts) {
    const strict = Boolean(opts.strict);
    const { targets, failed } = await collectTargets(ctx, inputs);
    const isNote = (p: Problem) => !strict && NOTE_CODES.has(p.code);
    // Problems are printed as each file is checked, in order; JSON needs them all first.
    const problems: Problem[] = [];
    let files = 0;
    let found = 0;
    let notes = 0;
    let fatal = false;
    let failing = false;
    await checkInOrder(ctx, targets, (checked) => {
      if (checked.read) files++;
      fatal ||= checked.fatal;
      for (const p of checked.problems) {
        if (isNote(p)) notes++;
        if (ctx.json) problems.push(p);
        else ctx.out(formatProblem(ctx, p, isNote(p)));
      }
      found += checked.problems.length;
      failing ||= checked.problems.some((p) => !isNote(p));
    });
    if (ctx.json) ctx.outJson({ files, problems });
    else ctx.out(`${plural(files, "file")} checked, ${plural(found - notes, "problem")}${notes > 0 ? `, ${plural(notes, "note")}` : ""}`);
    if (failed > 0) return failed;
    if (fatal) return 3;
    return failing ? 1 : 0;
  },
};
