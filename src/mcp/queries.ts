/**
 * Where the MCP tools get their answers: the query layer (src/query), one function per question,
 * over a catalog the server keeps open; `versioned` (src/query) gives a query's value as the CLI
 * prints it with `--json`, so a tool's `result` equals the command's output. The session
 * resource's Markdown comes from the `export` command, run in-process.
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import type { StorageEnv } from "../core/storage/layout.ts";
import type { FileSystem } from "../io/file-system.ts";
import { createQueryEnv, openQueryCatalog, type QueryEnv } from "../query/env.ts";

/** Where the server's sessions are: the global flags it was started with. */
export interface QueryScope {
  agentDir?: string;
  sessionDir?: string;
  /** The directory the server acts for (its project); absolute or relative to the process cwd. */
  cwd?: string;
}

/** What the queries need from the outside world. */
export interface QueryRuntime {
  fs: FileSystem;
  storage: StorageEnv;
  now: () => Date;
}

/**
 * The server's queries: `run` hands `work` an env for `scope` over one catalog, opened at the
 * first call and kept until `close`; calls run one at a time (the catalog is not made for
 * concurrent refreshes). Warnings the query reports (skipped broken lines) are returned beside.
 */
export class QueryRunner {
  readonly #runtime: QueryRuntime;
  readonly #log: (line: string) => void;
  #catalog: Promise<Catalog> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(runtime: QueryRuntime, log: (line: string) => void = () => {}) {
    this.#runtime = runtime;
    this.#log = log;
  }

  run<T>(scope: QueryScope, work: (env: QueryEnv) => Promise<T>): Promise<{ value: T; warnings: string[] }> {
    const next = this.#queue.then(async () => {
      const { fs, storage, now } = this.#runtime;
      this.#catalog ??= openQueryCatalog(fs, storage, this.#log);
      const catalog = await this.#catalog;
      const warnings: string[] = [];
      const env = createQueryEnv({ fs, storage, now, catalog, ...scope, report: { warn: (line) => warnings.push(line) } });
      return { value: await work(env), warnings };
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Closes the catalog (when one was opened). */
  async close(): Promise<void> {
    const catalog = this.#catalog;
    this.#catalog = undefined;
    if (catalog) (await catalog.catch(() => undefined))?.close();
  }
}

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
