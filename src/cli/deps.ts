/**
 * Everything the CLI needs from the outside world, passed in so that `run` is testable
 * without a process: file system, environment, output streams, terminal facts, time.
 * @module
 */
import type { StorageEnv } from "../core/storage/layout.ts";
import type { FileSystem } from "../io/file-system.ts";
import type { Terminal } from "./interactive/prompt.ts";

/** Runs an external program (used for the `trash` command); resolves with its exit code. */
export type ExecFn = (command: string, args: string[]) => Promise<{ code: number | null; stderr: string }>;

/**
 * Runs a program on our terminal (stdin, stdout and stderr inherited) in `cwd` and resolves
 * when it ends: its exit code (128 + signal number when a signal ended it), or `notFound`.
 */
export type SpawnFn = (command: string, args: string[], options: { cwd: string }) => Promise<{ code: number } | { notFound: true }>;

export interface CliDeps {
  fs: FileSystem;
  storage: StorageEnv;
  stdout: (text: string) => void;
  /** Writes UTF-8 bytes to stdout as they are (valid only during the call); absent: write their text through `stdout`. */
  stdoutBytes?: (bytes: Uint8Array) => void;
  stderr: (text: string) => void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width, when stdout is a terminal. */
  columns?: number;
  /** Terminal height, when stdout is a terminal. */
  rows?: number;
  /**
   * Shows `text` through the pager `command` (a shell command line), on the terminal; resolves
   * false, having shown nothing, when the pager could not be started. Absent: no pager.
   */
  page?: (command: string, text: string) => Promise<boolean>;
  now: () => Date;
  /** Runs external programs; absent means none can be run. */
  exec?: ExecFn;
  /** Hands the terminal to another program (`resume` starting pi); absent means none can be run. */
  spawn?: SpawnFn;
  /** Asks a yes/no question on the terminal; absent means no terminal to ask on. */
  confirm?: (question: string) => Promise<boolean>;
  /**
   * Starts this same command line again in the background, detached from this process and the
   * terminal (no input, output dropped), with `env` added to the environment; false when it could
   * not be started; absent where the program cannot start itself (check-later.ts).
   */
  runAgainDetached?: (env: Record<string, string>) => Promise<boolean>;
  /** Runs interactive prompts (pick, tree -i, fork's selector); absent unless stdin and stderr are terminals. */
  terminal?: Terminal;
}
