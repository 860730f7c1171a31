/**
 * Errors a user can cause, mapped to SPEC §4 exit codes: 1 found problems or nothing,
 * 2 bad usage or unresolvable reference, 3 unreadable input or not a session.
 * @module
 */
import { SessionError } from "../session/errors.ts";
import { isFsError } from "../io/file-system.ts";
import { printable } from "../render/control-chars.ts";

/** A usage or reference problem, with a hint; exit code 2 unless said otherwise. */
export class CliError extends SessionError {
  constructor(code: string, message: string, hint: string, exitCode = 2) {
    super(code, message, exitCode, hint);
    this.name = "CliError";
  }
}

/**
 * Exit code and the two lines (what failed, what to do) for any error; bugs keep their stack.
 * Messages quote ids, paths and labels from session files: control characters are made visible.
 */
export function describeError(error: unknown): { exitCode: number; lines: string[] } {
  const { exitCode, lines } = describe(error);
  return { exitCode, lines: lines.map(printable) };
}

function describe(error: unknown): { exitCode: number; lines: string[] } {
  if (error instanceof SessionError) {
    return { exitCode: error.exitCode, lines: [`pi-session: ${error.message}`, `hint: ${error.hint}`] };
  }
  if (isFsError(error)) {
    const reading = /^Cannot (read|stat|list) /.test(error.message);
    const hint = error.kind === "NotFound"
      ? reading ? "Check the path; `pi-session list --all` shows the sessions it can find" : "Check that the folder to write in exists"
      : error.kind === "PermissionDenied"
      ? "Check the file's permissions, or run as a user who may access it"
      : reading
      ? "Check that the path is a readable session file"
      : "Check that the place can be written: not a read-only mount, and the disk is not full";
    return { exitCode: 3, lines: [`pi-session: ${error.message}`, `hint: ${hint}`] };
  }
  const stack = error instanceof Error ? error.stack ?? error.message : String(error);
  return {
    exitCode: 1,
    lines: [`pi-session: internal error: ${stack}`, "hint: this is a bug in pi-session; please report it with the command you ran"],
  };
}
