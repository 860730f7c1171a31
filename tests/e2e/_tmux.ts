/**
 * Driving a command in a real terminal: a detached tmux pane on a private tmux server,
 * keys sent with `send-keys`, the screen read with `capture-pane`, waiting by polling
 * (never fixed sleeps). The command's stdout and exit code land in files; stderr is the
 * terminal, as for a user (prompts draw there).
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/** True when a `tmux` binary runs. */
export function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the command left behind once it exited, and the terminal then. */
export interface Finished {
  code: number;
  stdout: string;
  screen: string[];
  /** `stty -a` right after the exit: raw mode must be off again (`icanon`, `echo`). */
  stty: string;
  cursorVisible: boolean;
}

/** One command running in its own tmux session. */
export class Pane {
  readonly #socket: string;
  readonly #name: string;
  readonly #files: { out: string; rc: string; stty: string };

  private constructor(socket: string, name: string, dir: string) {
    this.#socket = socket;
    this.#name = name;
    this.#files = { out: join(dir, `${name}.out`), rc: join(dir, `${name}.rc`), stty: join(dir, `${name}.stty`) };
  }

  /** Starts `argv` (run from `cwd`, with exactly `env`) in a `columns`×`rows` pane. */
  static start(options: { socket: string; name: string; dir: string; cwd: string; argv: string[]; env: Record<string, string>; columns: number; rows: number; stdoutOnTerminal?: boolean }): Pane {
    const pane = new Pane(options.socket, options.name, options.dir);
    const { out, rc, stty } = pane.#files;
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${quote(v)}`);
    // TERM comes from tmux; everything else is what the test says. The shell then idles so
    // the screen can still be read (the server is killed at the end).
    const command = `/usr/bin/env -i TERM="$TERM" ${env.join(" ")} ${options.argv.map(quote).join(" ")}`;
    // stdout goes to a file, unless the test needs it on the terminal (a pager).
    const redirect = options.stdoutOnTerminal ? "" : ` >${quote(out)}`;
    const script = `cd ${quote(options.cwd)} && ${command}${redirect}; code=$?; stty -a >${quote(stty)}; echo $code >${quote(rc)}; exec sleep 600`;
    pane.#tmux("new-session", "-d", "-s", options.name, "-x", String(options.columns), "-y", String(options.rows), script);
    return pane;
  }

  #tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.#socket, ...args], { encoding: "utf8" });
  }

  /** The screen as text, one string per row. */
  screen(): string[] {
    try {
      return this.#tmux("capture-pane", "-p", "-t", this.#name).split("\n");
    } catch {
      return []; // the pane closed with the command
    }
  }

  /** Waits until the screen matches `pattern` (10 s at most) and returns the screen. */
  async waitFor(pattern: RegExp, timeoutMs = 10_000): Promise<string[]> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen.join("\n"))) return screen;
      if (Date.now() > until) throw new Error(`Timed out waiting for ${pattern} on the screen:\n${screen.join("\n")}`);
      await sleep(50);
    }
  }

  /** Sends tmux key names (`Enter`, `C-o`, `Escape`, `Up`). */
  keys(...keys: string[]): void {
    this.#tmux("send-keys", "-t", this.#name, ...keys);
  }

  /** Resizes the pane's window (the program gets SIGWINCH). */
  resize(columns: number, rows: number): void {
    this.#tmux("resize-window", "-t", this.#name, "-x", String(columns), "-y", String(rows));
  }

  /** Types text literally. */
  type(text: string): void {
    this.#tmux("send-keys", "-t", this.#name, "-l", text);
  }


  /** Waits for the command to exit (10 s at most). */
  async finished(timeoutMs = 10_000): Promise<Finished> {
    const until = Date.now() + timeoutMs;
    while (!existsSync(this.#files.rc) || readFileSync(this.#files.rc, "utf8").trim() === "") {
      if (Date.now() > until) throw new Error(`Timed out waiting for exit; screen:\n${this.screen().join("\n")}`);
      await sleep(50);
    }
    const cursorVisible = this.#tmux("display-message", "-p", "-t", this.#name, "#{cursor_flag}").trim() === "1";
    return {
      code: Number(readFileSync(this.#files.rc, "utf8")),
      stdout: existsSync(this.#files.out) ? readFileSync(this.#files.out, "utf8") : "",
      screen: this.screen(),
      stty: readFileSync(this.#files.stty, "utf8"),
      cursorVisible,
    };
  }
}

/** Stops the private tmux server (and every pane still on it) and removes its socket. */
export function killServer(socket: string): void {
  try {
    const path = execFileSync("tmux", ["-L", socket, "display-message", "-p", "#{socket_path}"], { encoding: "utf8" }).trim();
    execFileSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
    if (path) rmSync(path, { force: true });
  } catch {
    // already gone
  }
}
