/**
 * A command is a plain object: its name, a one-line purpose, arguments, options, examples
 * and a `run` that returns the exit code. `run.ts` turns these into the commander program.
 * @module
 */
import type { CliContext } from "./context.ts";

export interface OptionSpec {
  /** Commander flags syntax, e.g. "--leaf <entry>" or "-a, --all". */
  flags: string;
  description: string;
  /** Allowed values, checked before `run`. */
  choices?: string[];
  default?: string | boolean;
}

export interface CommandSpec {
  name: string;
  /** One line: what the command is for. */
  summary: string;
  /** Commander argument syntax, e.g. ["<ref>", "[name]"]. */
  args?: string[];
  options?: OptionSpec[];
  /** Lines of prose shown under the options (a query syntax, a rule worth knowing). */
  notes?: string[];
  /** Two or three command lines shown under the help. */
  examples: string[];
  /** Left out of `--help` and shell completions (internal helpers such as `__complete-sessions`). */
  hidden?: boolean;
  /** Output taller than the terminal goes through the pager (`--no-pager` prints it as it is). */
  paged?: boolean;
  /**
   * A command that only reads, safe to run twice: when its catalog's last full check is over a
   * minute old, it answers by the quick check and runs again in the background to check in full
   * (check-later.ts).
   */
  checksLater?: boolean;
  run(ctx: CliContext, args: string[], options: Record<string, unknown>): Promise<number>;
}
