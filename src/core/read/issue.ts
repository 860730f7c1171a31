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

/** Codes of issues whose line the reader leaves out: it holds no entry that can be used. */
const SKIPPING: ReadonlySet<IssueCode> = new Set<IssueCode>(["malformed-json", "torn-line", "too-deep", "not-an-object", "duplicate-header"]);

/**
 * The lines a reader skipped (ascending, each once): broken JSON, a cut-off last line, a line
 * that is not an object, a second header.
 *
 * @example
 * ```ts
 * skippedLines([issue(4, "malformed-json", "…"), issue(0, "crlf", "…")]); // [4]
 * ```
 */
export function skippedLines(issues: readonly ReadIssue[]): number[] {
  return [...new Set(issues.filter((i) => SKIPPING.has(i.code)).map((i) => i.line))].sort((a, b) => a - b);
}
