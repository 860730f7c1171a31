/**
 * What every interactive command does first: get the terminal, or fail with exit 2 and a
 * hint at the non-interactive way when stdin or stderr is not one.
 * @module
 */
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";
import type { Terminal } from "./prompt.ts";

/** Exit code of a prompt cancelled with Escape or Ctrl+C (as a shell reports Ctrl+C). */
export const CANCELLED = 130;

/**
 * The terminal to draw on, or a `needs-terminal` error (exit 2) naming `what`.
 *
 * @example
 * ```ts
 * // const terminal = requireTerminal(ctx, "pick", "Use `pi-session list` in scripts");
 * ```
 */
export function requireTerminal(ctx: CliContext, what: string, hint: string): Terminal {
  const terminal = ctx.deps.terminal;
  if (!terminal) throw new CliError("needs-terminal", `${what} needs a terminal: stdin and stderr must both be one`, hint);
  return terminal;
}
