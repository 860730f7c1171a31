/**
 * Errors as the HTTP API answers them: `{error: {code, message, hint}}` with a status mapped
 * from the SPEC §4 exit code the CLI would have used (2 → 400, or 404 when a reference names
 * nothing; 3 → 422, or 404 when the file is gone), and 500 for bugs, with no stack.
 * @module
 */
import { isFsError } from "../io/file-system.ts";
import { SessionError } from "../session/errors.ts";

/** The `error` member of an API error body. */
export interface ApiError {
  code: string;
  message: string;
  hint: string;
}

/** Codes that say "nothing by that name" rather than "you asked badly". */
const NOT_FOUND = new Set(["no-session", "not-found", "entry-not-found", "unknown-session", "unknown-entry", "no-such-route"]);

/** The HTTP status for an error code and exit code. */
export function statusFor(code: string, exitCode: number): number {
  if (NOT_FOUND.has(code)) return 404;
  if (exitCode === 2) return 400;
  if (exitCode === 3) return 422;
  return 500;
}

/** An error raised on purpose by the API itself (a bad parameter, an unknown route). */
export class ApiFailure extends Error {
  readonly status: number;
  readonly body: ApiError;
  constructor(status: number, code: string, message: string, hint: string) {
    super(message);
    this.status = status;
    this.body = { code, message, hint };
  }
}

/** The status and body for any error; `internal` hides what a bug was (it goes to the log). */
export function describeApiError(error: unknown): { status: number; body: ApiError; bug: boolean } {
  if (error instanceof ApiFailure) return { status: error.status, body: error.body, bug: false };
  if (error instanceof SessionError) {
    return { status: statusFor(error.code, error.exitCode), body: { code: error.code, message: error.message, hint: error.hint }, bug: false };
  }
  if (isFsError(error)) {
    const code = error.kind === "NotFound" ? "not-found" : error.kind === "PermissionDenied" ? "permission-denied" : "io-error";
    const hint = error.kind === "PermissionDenied" ? "Run the server as a user who may read the session files" : "The session file may have been moved or deleted meanwhile";
    return { status: statusFor(code, 3), body: { code, message: error.message, hint }, bug: false };
  }
  return {
    status: 500,
    body: { code: "internal", message: "Internal error", hint: "This is a bug in pi-session; the server's log has the details" },
    bug: true,
  };
}

/** The JSON response for an error. */
export function errorResponse(status: number, body: ApiError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: body }, null, 2) + "\n", {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
