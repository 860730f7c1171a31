/**
 * Errors a user can cause, mapped to SPEC §4 exit codes: 1 found problems or nothing,
 * 2 bad usage or unresolvable reference, 3 unreadable input or not a session.
 * @module
 */
import { errorValue, QueryError } from "../query/errors.ts";
import { printable } from "../render/control-chars.ts";

/** The CLI's name for the query layer's error: one class, raised and read alike by every surface. */
export { QueryError as CliError };

/**
 * Exit code and the two lines (what failed, what to do) for any error; bugs keep their stack.
 * Messages quote ids, paths and labels from session files: control characters are made visible.
 */
export function describeError(error: unknown): { exitCode: number; lines: string[] } {
  const { exitCode, lines } = describe(error);
  return { exitCode, lines: lines.map(printable) };
}

function describe(error: unknown): { exitCode: number; lines: string[] } {
  const known = errorValue(error);
  if (known) return { exitCode: known.exitCode, lines: [`pi-session: ${known.message}`, `hint: ${known.hint}`] };
  const stack = error instanceof Error ? error.stack ?? error.message : String(error);
  return {
    exitCode: 1,
    lines: [`pi-session: internal error: ${stack}`, "hint: this is a bug in pi-session; please report it with the command you ran"],
  };
}
