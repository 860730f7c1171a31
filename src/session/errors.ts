/**
 * Errors the session layer throws for problems a user can cause. Each carries a code,
 * the CLI exit code of SPEC §4 and a hint saying what to do.
 * @module
 */
import type { ReadIssue } from "../core/read/issue.ts";
import { MAX_JSON_DEPTH } from "../core/read/json-depth.ts";

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
    const why = issues.find((i) => i.code === "not-a-session" || i.code === "bad-header" || i.code === "empty-file");
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

/** A line nests values deeper than `MAX_JSON_DEPTH`: nothing can walk it without overflowing the stack. */
export class TooDeepError extends SessionError {
  readonly path: string;
  readonly line: number;
  constructor(path: string, line: number) {
    super(
      "too-deep",
      `Cannot read ${path}: line ${line} nests values more than ${MAX_JSON_DEPTH} levels deep`,
      3,
      "No pi entry nests that deep; `pi-session check` lists every such line",
    );
    this.path = path;
    this.line = line;
  }
}

/**
 * The session file was rewritten while a command read it twice, and the second read no longer
 * matches the first (the export of a big session scans its lines on another thread as it reads
 * them the first time).
 */
export class SessionChangedError extends SessionError {
  readonly path: string;
  readonly line: number;
  constructor(path: string, line: number) {
    super(
      "session-changed",
      `Cannot export ${path}: line ${line} changed while the export read it`,
      3,
      "Something rewrote the session during the export (pi itself only appends); run the export again",
    );
    this.path = path;
    this.line = line;
  }
}

/**
 * Throws `TooDeepError` for the first too-deep line among `issues`. Readers leave such a line
 * out (as they do a line that is not JSON), but a command that answered without it would answer
 * about a different session: what needs the whole session calls this.
 */
export function refuseTooDeep(path: string, issues: readonly ReadIssue[]): void {
  const deep = issues.find((i) => i.code === "too-deep");
  if (deep) throw new TooDeepError(path, deep.line);
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

/** An entry id given to a `SessionManager` method names no entry (pi's `Entry <id> not found`). */
export class UnknownEntryError extends SessionError {
  readonly entryId: string;
  constructor(entryId: string | null | undefined) {
    super("entry-not-found", `Entry ${entryId} not found`, 2, "Pass the id of an entry of this session");
    this.entryId = String(entryId);
  }
}

/** A caller-chosen session id that pi would refuse. */
export class InvalidSessionIdError extends SessionError {
  constructor(id: string) {
    super(
      "invalid-session-id",
      `Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character: "${id}"`,
      2,
      "Use letters and digits, with '-', '_' or '.' only inside",
    );
  }
}

/** `appendContextEdit` was given a replacement or target pi would refuse. */
export class InvalidContextEditError extends SessionError {
  constructor(message: string) {
    super("invalid-context-edit", message, 2, "Edit a user, assistant, toolResult or custom message on the active branch");
  }
}

/** `forkFrom` was pointed at a file that is missing, empty or not a session. */
export class InvalidForkSourceError extends SessionError {
  readonly path: string;
  constructor(path: string, reason: string) {
    super("invalid-fork-source", `Cannot fork: source session file is empty or invalid: ${path} (${reason})`, 3, "Fork from a pi session file that holds a header");
    this.path = path;
  }
}

/** The session file on disk is not what this manager expects, so writing could lose data. */
export class SessionWriteConflictError extends SessionError {
  readonly path: string;
  constructor(path: string, reason: string) {
    super("write-conflict", `Cannot write session file ${path}: ${reason}`, 1, "Open the session again and retry");
    this.path = path;
  }
}
