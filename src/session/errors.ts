/**
 * Errors the session layer throws for problems a user can cause. Each carries a code,
 * the CLI exit code of SPEC §4 and a hint saying what to do.
 * @module
 */
import type { ReadIssue } from "../core/read/issue.ts";

/** Base class: `{code, exitCode, hint}` as STYLE.md asks. */
export class SessionError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly hint: string;
  constructor(code: string, message: string, exitCode: number, hint: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SessionError";
    this.code = code;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** The file exists but its first parsed line is not a session header. */
export class NotASessionError extends SessionError {
  readonly path: string;
  readonly issues: ReadIssue[];
  constructor(path: string, issues: ReadIssue[] = []) {
    const why = issues.find((i) => i.code === "not-a-session" || i.code === "empty-file");
    super(
      "not-a-session",
      `${path} is not a pi session${why ? `: ${why.message.charAt(0).toLowerCase()}${why.message.slice(1)}` : ""}`,
      3,
      "Pass a .jsonl file written by pi (its first line is a {\"type\":\"session\",…} header)",
    );
    this.path = path;
    this.issues = issues;
  }
}

/** An entry id, prefix or label that names nothing (or more than one thing). */
export class EntryNotFoundError extends SessionError {
  constructor(ref: string, path: string, candidates: string[] = []) {
    super(
      candidates.length > 1 ? "ambiguous-entry" : "entry-not-found",
      candidates.length > 1
        ? `Entry reference "${ref}" matches ${candidates.length} entries in ${path}: ${candidates.slice(0, 8).join(", ")}`
        : `Entry "${ref}" not found in ${path}`,
      2,
      candidates.length > 1 ? "Type more characters of the id" : "List entries with `pi-session tree <session>`",
    );
  }
}
