/**
 * The questions the MCP tools ask, answered by the CLI's own `--json` code path run in-process:
 * so a tool's `result` is, by construction, what `pi-session <command> --json` prints. Every
 * answer goes through `runJson`; nothing here decides anything about sessions.
 * @module
 */
import type { StorageEnv } from "../core/storage/layout.ts";
import type { FileSystem } from "../io/file-system.ts";

/** Where the server's sessions are: the global flags it was started with. */
export interface QueryScope {
  agentDir?: string;
  sessionDir?: string;
  /** The directory the server acts for (its project); absolute or relative to the process cwd. */
  cwd?: string;
}

/** What the in-process CLI needs from the outside world. */
export interface QueryRuntime {
  fs: FileSystem;
  storage: StorageEnv;
  now: () => Date;
}

/** A command's answer: its `--json` value, or the error lines it printed and its exit code. */
export type JsonAnswer =
  | { ok: true; value: unknown; exitCode: number; warnings: string[] }
  | { ok: false; exitCode: number; message: string; hint: string };

/** A command's output: its exit code, what it printed on stdout, and its stderr lines. */
export interface CliOutput {
  exitCode: number;
  stdout: string;
  stderr: string[];
}

/** Runs `pi-session [scope flags] <argv>` in this process, stdout and stderr captured. */
export async function runCli(runtime: QueryRuntime, scope: QueryScope, argv: string[]): Promise<CliOutput> {
  const { run } = await import("../cli/run.ts");
  const out: string[] = [];
  const err: string[] = [];
  const globals = [
    ...(scope.agentDir === undefined ? [] : ["--agent-dir", scope.agentDir]),
    ...(scope.sessionDir === undefined ? [] : ["--session-dir", scope.sessionDir]),
    ...(scope.cwd === undefined ? [] : ["--cwd", scope.cwd]),
    "--quiet",
    "--no-color",
    "--no-pager",
  ];
  const exitCode = await run([...globals, ...argv], {
    fs: runtime.fs,
    storage: runtime.storage,
    now: runtime.now,
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
  });
  return { exitCode, stdout: out.join(""), stderr: err.join("").split("\n").filter((line) => line.trim() !== "") };
}

/** The `pi-session: …` and `hint: …` lines of a failed run, as message and hint. */
export function failure(output: CliOutput, command: string): { message: string; hint: string } {
  const lines = output.stderr;
  const message = lines.find((line) => line.startsWith("pi-session: "))?.slice("pi-session: ".length) ??
    lines.find((line) => !line.startsWith("hint: ")) ?? `pi-session ${command} failed (exit code ${output.exitCode})`;
  const hint = lines.find((line) => line.startsWith("hint: "))?.slice("hint: ".length) ?? "";
  return { message: message.replace(/^error: /, ""), hint };
}

/**
 * Runs `pi-session [scope flags] <argv> --json` in this process and parses what it prints.
 * Exit code 1 with JSON printed (nothing found) is an answer; 2 and 3 are errors, with the
 * `pi-session: …` and `hint: …` lines the CLI prints.
 */
export async function runJson(runtime: QueryRuntime, scope: QueryScope, argv: string[]): Promise<JsonAnswer> {
  const output = await runCli(runtime, scope, ["--json", ...argv]);
  const { exitCode } = output;
  const text = output.stdout;
  if (exitCode <= 1 && text.trim() !== "") {
    try {
      const warnings = output.stderr.filter((line) => line.startsWith("warning: ")).map((line) => line.slice("warning: ".length));
      return { ok: true, value: JSON.parse(text), exitCode, warnings };
    } catch {
      // reported below
    }
  }
  return { ok: false, exitCode, ...failure(output, argv[0]) };
}
