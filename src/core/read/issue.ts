/**
 * Problems found while reading a session file, returned as data so that callers
 * (check, show, the CLI) can say what is wrong and where, and nothing is dropped silently.
 * @module
 */

/** Stable codes; `check --json` prints them and scripts may rely on them. */
export type IssueCode =
  | "empty-file"
  | "not-a-session"
  | "bad-header"
  | "bom"
  | "crlf"
  | "invalid-utf8"
  | "malformed-json"
  | "torn-line"
  | "too-deep"
  | "missing-newline"
  | "not-an-object"
  | "duplicate-header"
  | "missing-field"
  | "duplicate-id"
  | "self-parent"
  | "cycle"
  | "missing-parent"
  | "label-target-missing"
  | "compaction-off-path"
  | "bad-field"
  | "unknown-type"
  | "unknown-role"
  | "version-newer"
  | "legacy-version"
  | "unknown-from-id"
  | "unreadable";

/** One problem: 1-based line of the file (0 when it concerns the whole file). */
export interface ReadIssue {
  line: number;
  code: IssueCode;
  message: string;
  entryId?: string;
}

/** Builds an issue; keeps call sites to one line. */
export function issue(line: number, code: IssueCode, message: string, entryId?: string): ReadIssue {
  return entryId === undefined ? { line, code, message } : { line, code, message, entryId };
}
