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

export interface CliDeps {
  fs: FileSystem;
  storage: StorageEnv;
  stdout: (text: string) => void;
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
  /** Asks a yes/no question on the terminal; absent means no terminal to ask on. */
  confirm?: (question: string) => Promise<boolean>;
  /** Runs interactive prompts (pick, tree -i, fork's selector); absent unless stdin and stderr are terminals. */
  terminal?: Terminal;
}
