/**
 * The executable's entry point and the only CLI file that touches the process: it
 * gathers the real dependencies, calls `run`, and sets the exit code.
 * @module
 */
import process from "node:process";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline/promises";
import { detectFileSystem } from "../io/mod.ts";
import { processEnvironment } from "../io/environment.ts";
import type { CliDeps, ExecFn } from "./deps.ts";
import { createTerminal } from "./interactive/terminal.ts";
import { VERSION_LINE } from "../version.ts";

const exec: ExecFn = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (d) => (stderr += String(d)));
    child.on("error", () => resolve({ code: null, stderr }));
    child.on("close", (code) => resolve({ code, stderr }));
  });

/** A y/N question on the terminal (stderr), answered on stdin. */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

const deps: CliDeps = {
  fs: detectFileSystem(),
  storage: processEnvironment(),
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  stdinIsTTY: Boolean(process.stdin.isTTY),
  columns: process.stdout.columns,
  now: () => new Date(),
  exec,
  confirm: process.stdin.isTTY ? confirm : undefined,
  // Prompts draw on stderr so that stdout carries only the result: `pi --session "$(pi-session pick)"`.
  terminal: process.stdin.isTTY && process.stderr.isTTY ? createTerminal({ input: process.stdin, output: process.stderr }) : undefined,
};

process.stdout.on?.("error", (error: NodeJS.ErrnoException) => {
  // A closed pipe (`| head`) is a normal way for a reader to stop.
  if (error.code === "EPIPE") process.exit(0);
});

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  // Answered before loading the command framework: scripts call this often.
  process.stdout.write(VERSION_LINE + "\n");
} else {
  const { run } = await import("./run.ts");
  process.exitCode = await run(argv, deps);
}
