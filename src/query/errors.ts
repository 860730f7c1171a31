/**
 * The error every surface shows: a problem a user can cause, with what to do about it and the
 * SPEC §4 exit code (1 found problems or nothing, 2 bad usage or unresolvable reference, 3
 * unreadable input). The CLI prints it as two lines, the HTTP API as `{error:{code,message,hint}}`.
 * @module
 */
import { isFsError } from "../io/file-system.ts";
import { SessionError } from "../session/errors.ts";

/** A usage or reference problem, with a hint; exit code 2 unless said otherwise. */
export class QueryError extends SessionError {
  constructor(code: string, message: string, hint: string, exitCode = 2) {
    super(code, message, exitCode, hint);
    this.name = "QueryError";
  }
}

/** What a surface reports about an error it was meant to meet. */
export interface ErrorValue {
  code: string;
  message: string;
  hint: string;
  /** SPEC §4: 1 found nothing or problems, 2 usage or reference, 3 unreadable input. */
  exitCode: number;
}

/**
 * The `{code, message, hint, exitCode}` of an error raised on purpose (a `SessionError`, and so
 * a `QueryError`) or by the file system (exit 3); undefined for anything else, which is a bug.
 * Messages quote ids, paths and labels from files as they are: a terminal must make control
 * characters visible itself.
 */
export function errorValue(error: unknown): ErrorValue | undefined {
  if (error instanceof SessionError) return { code: error.code, message: error.message, hint: error.hint, exitCode: error.exitCode };
  if (!isFsError(error)) return undefined;
  const reading = /^Cannot (read|stat|list) /.test(error.message);
  // An error that knows what to do about it says so (a lock held by another process: who and since when).
  const hint = error.hint !== undefined
    ? error.hint
    : error.kind === "NotFound"
    ? reading ? "Check the path; `pi-session list --all` shows the sessions it can find" : "Check that the folder to write in exists"
    : error.kind === "PermissionDenied"
    ? "Check the file's permissions, or run as a user who may access it"
    : reading
    ? "Check that the path is a readable session file"
    : "Check that the place can be written: not a read-only mount, and the disk is not full";
  const code = error.kind === "NotFound" ? "not-found" : error.kind === "PermissionDenied" ? "permission-denied" : "io-error";
  return { code, message: error.message, hint, exitCode: 3 };
}
