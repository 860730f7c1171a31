/**
 * The executable's entry point and the only CLI file that touches the process: it
 * gathers the real dependencies, calls `run`, and sets the exit code.
 *
 * Start-up matters here (scripts call `pi-session` often): in the compiled binary, merely
 * touching `process.stdout`, `process.stdin` or `node:tty` builds stream machinery that costs
 * more than a small command's work. So output is written with `writeSync`, and the terminal
 * facts come from a cheap `fstat` first; the streams are created only on a real terminal.
 * @module
 */
import process from "node:process";
import { fstatSync, statSync, writeSync } from "node:fs";
import type { CliDeps, ExecFn, SpawnFn } from "./deps.ts";
import { VERSION_LINE } from "../version.ts";

const STREAMS = [() => process.stdin, () => process.stdout, () => process.stderr] as const;

/** The device number of /dev/null, or null where there is none. */
let nullDevice: number | null | undefined;

/**
 * True when file descriptor `fd` (0, 1 or 2) is a terminal. Pipes and files are ruled out by
 * `fstat` alone, and so is /dev/null (a character device, like a terminal, and what scripts and
 * services often connect); only another character device asks the stream.
 */
function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice()) return false;
    nullDevice ??= statSync("/dev/null", { throwIfNoEntry: false })?.rdev ?? null;
    if (stats.rdev === nullDevice) return false;
  } catch {
    // No fstat for this descriptor here: ask the stream.
  }
  return Boolean(STREAMS[fd]().isTTY);
}

const encoder = new TextEncoder();
/** Texts up to this long are encoded into a writer's reused bytes (3 at most for each UTF-16 code unit). */
const SPARE_TEXT = 128 * 1024;

/**
 * A function giving a text as UTF-8: up to `SPARE_TEXT`, in the same bytes each time (valid
 * until the next call), else in new ones. A table of 25,000 rows writes 6.6 MB in 64 KB pieces:
 * a new array for each was 6.6 MB of garbage, each page of it faulted in.
 */
function utf8(): (text: string) => Uint8Array {
  let spare: Uint8Array | undefined;
  return (text) => {
    if (text.length > SPARE_TEXT) return encoder.encode(text);
    spare ??= new Uint8Array(SPARE_TEXT * 3);
    return spare.subarray(0, encoder.encodeInto(text, spare).written);
  };
}

/**
 * Writes text to `fd` synchronously, so output is complete and in order even when the
 * process exits right after. A non-blocking descriptor that is full (EAGAIN) hands the rest,
 * and everything after it, to the stream; a reader that went away (EPIPE, `| head`) ends the
 * process quietly when it was stdout. `bytes` writes UTF-8 bytes the same way (`list`'s table
 * copies its titles' bytes straight from the catalog).
 */
function writer(fd: 1 | 2): { text: (text: string) => void; bytes: (bytes: Uint8Array) => void; streaming: () => boolean } {
  let useStream = false;
  const bytesOf = utf8();
  const bytes = (bytes: Uint8Array) => {
    // A copy: the stream writes later, and the bytes may be reused by then.
    if (useStream) return void STREAMS[fd]().write(bytes.slice());
    let at = 0;
    try {
      while (at < bytes.length) at += writeSync(fd, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        useStream = true;
        const stream = STREAMS[fd]();
        stream.on("error", (streamError: NodeJS.ErrnoException) => {
          if (streamError.code !== "EPIPE") throw streamError;
          if (fd === 1) process.exit(0);
        });
        stream.write(bytes.slice(at));
      } else if (code === "EPIPE") {
        if (fd === 1) process.exit(0);
      } else {
        throw error;
      }
    }
  };
  const text = (text: string) => {
    if (useStream) return void STREAMS[fd]().write(text);
    bytes(bytesOf(text));
  };
  return { text, bytes, streaming: () => useStream };
}

const exec: ExecFn = async (command, args) => {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (d) => (stderr += String(d)));
    child.on("error", () => resolve({ code: null, stderr }));
    child.on("close", (code) => resolve({ code, stderr }));
  });
};

/**
 * Runs the pager command line through the shell with `text` on its stdin and the terminal as
 * its output, as git does (LESS=FRX unless LESS is set). Ctrl+C belongs to the pager meanwhile.
 */
const page = async (command: string, text: string): Promise<boolean> => {
  const { spawn } = await import("node:child_process");
  const env = { ...process.env, LESS: process.env.LESS ?? "FRX" };
  const ignore = () => {};
  process.on("SIGINT", ignore);
  try {
    return await new Promise<boolean>((resolve) => {
      const child = spawn(command, { shell: true, stdio: ["pipe", "inherit", "inherit"], env });
      child.on("error", () => resolve(false));
      // EPIPE when the pager is quit before it read everything.
      child.stdin?.on("error", () => {});
      // 127: the shell found no such command (it said so); the text is printed instead.
      child.on("close", (code) => resolve(code !== 127));
      child.stdin?.end(text);
    });
  } finally {
    process.off("SIGINT", ignore);
  }
};

/**
 * Runs a program on our terminal. No runtime lets a JavaScript process replace itself (exec),
 * so we wait, leave Ctrl+C and friends to the program (the terminal sends them to both), and
 * exit with its code.
 */
const spawnInherited: SpawnFn = async (command, args, { cwd }) => {
  const [{ spawn }, { constants }] = await Promise.all([import("node:child_process"), import("node:os")]);
  const ignore = () => {};
  const signals = ["SIGINT", "SIGQUIT", "SIGTSTP"] as const;
  for (const signal of signals) process.on(signal, ignore);
  try {
    return await new Promise((resolve) => {
      const child = spawn(command, args, { cwd, stdio: "inherit" });
      child.on("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ENOENT" ? { notFound: true } : { code: 126 }));
      child.on("exit", (code, signal) => resolve({ code: code ?? 128 + ((signal && constants.signals[signal]) || 0) }));
    });
  } finally {
    for (const signal of signals) process.off(signal, ignore);
  }
};

/**
 * How this program starts itself again: Bun's executable alone; the sources or a bundle under
 * Node or Bun, their runtime with its flags (tsx's loader) and the script. Not under Deno, whose
 * permission flags a process cannot read back: no background run there (the full check is then
 * made at once, as before).
 */
function selfCommand(): string[] | undefined {
  if (import.meta.url.includes("/$bunfs/")) return [process.execPath];
  if ((globalThis as { Deno?: unknown }).Deno !== undefined || !process.argv[1]) return undefined;
  return [process.execPath, ...process.execArgv, process.argv[1]];
}

/** The part of Bun's own `spawn` used here. */
interface BunSpawn {
  spawn(command: string[], options: { stdio: ["ignore", "ignore", "ignore"]; env: Record<string, string | undefined>; detached: boolean; windowsHide: boolean }): { unref(): void };
}

/**
 * This command line again, detached from us and the terminal (its own session, no input, output
 * dropped), with `env` added: it goes on after we exit. Under Bun through its own `spawn`: 1 to 3
 * ms, where loading `node:child_process` and spawning through it took 9 to 10 (by hand, the binary).
 */
async function runAgainDetached(self: string[], env: Record<string, string>): Promise<boolean> {
  const command = [...self, ...argv];
  const merged = { ...process.env, ...env };
  try {
    const bun = (globalThis as { Bun?: BunSpawn }).Bun;
    if (bun) {
      bun.spawn(command, { stdio: ["ignore", "ignore", "ignore"], env: merged, detached: true, windowsHide: true }).unref();
      return true;
    }
    const { spawn } = await import("node:child_process");
    const child = spawn(command[0], command.slice(1), { detached: true, stdio: "ignore", windowsHide: true, env: merged });
    child.on("error", () => {});
    child.unref();
    return child.pid !== undefined;
  } catch {
    return false;
  }
}

/** A y/N question on the terminal (stderr), answered on stdin. */
async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

const { text: stdout, bytes: stdoutBytes, streaming: stdoutStreams } = writer(1);
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  // Answered before loading anything else.
  stdout(VERSION_LINE + "\n");
} else {
  const stdoutIsTTY = isTerminal(1);
  const stderrIsTTY = isTerminal(2);
  const stdinIsTTY = isTerminal(0);
  // The prompts' terminal only on a terminal: its modules and string-width's set-up took a
  // command of a few milliseconds (search, info) 8 ms more.
  const [{ run }, { detectFileSystem }, { processEnvironment }, prompts] = await Promise.all([
    import("./run.ts"),
    import("../io/mod.ts"),
    import("../io/environment.ts"),
    stdinIsTTY && stderrIsTTY ? import("./interactive/terminal.ts") : undefined,
  ]);
  const stderr = writer(2);
  // Whether a prompt drew on the terminal: its last writes go through a stream.
  let prompted = false;
  const terminal = prompts?.createTerminal({ input: process.stdin, output: process.stderr });
  const self = selfCommand();
  const deps: CliDeps = {
    fs: detectFileSystem(),
    storage: processEnvironment(),
    stdout,
    stdoutBytes,
    stderr: stderr.text,
    stdoutIsTTY,
    stderrIsTTY,
    stdinIsTTY,
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
    rows: stdoutIsTTY ? process.stdout.rows : undefined,
    page: stdoutIsTTY ? page : undefined,
    now: () => new Date(),
    exec,
    spawn: spawnInherited,
    confirm: stdinIsTTY ? confirm : undefined,
    // Prompts draw on stderr so that stdout carries only the result: `pi --session "$(pi-session pick)"`.
    terminal: terminal && { ...terminal, run: (program) => ((prompted = true), terminal.run(program)) },
    runAgainDetached: self && ((env) => runAgainDetached(self, env)),
  };
  process.exitCode = await run(argv, deps);
  // Done, every word written (synchronously): leave at once. Left to itself, Bun first idles
  // through a collection of what the run left behind, which nothing needs: about 60 ms after a
  // cold `stats --all` of 2,400 sessions. Not when output waits in a stream (a full non-blocking
  // pipe), nor after a prompt drew (its last frame goes out through one too). A pager and a y/N
  // question are over by now: the command waited for them.
  if (!stdoutStreams() && !stderr.streaming() && !prompted) process.exit();
}
