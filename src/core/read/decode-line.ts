/**
 * Turns the bytes of one line into a JSON value, noting BOM, CRLF and invalid UTF-8
 * instead of failing on them. Shared by the full reader and the header scan.
 * @module
 */
import { headerProblem } from "./header-problem.ts";
import { issue, type ReadIssue } from "./issue.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth.ts";
import type { RawLine } from "./line-splitter.ts";

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The outcome for one line: a parsed value, nothing (blank), or a problem. */
export type DecodedLine =
  | { kind: "blank" }
  | { kind: "value"; value: unknown }
  | { kind: "error"; issue: ReadIssue };

/** Flags that are reported once per file rather than once per line. */
export interface DecodeNotes {
  bom: boolean;
  crlf: boolean;
}

function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/** Decodes bytes as UTF-8; invalid sequences become U+FFFD and an issue. */
export function decodeText(bytes: Uint8Array, line: number, issues: ReadIssue[]): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    issues.push(issue(line, "invalid-utf8", `Line ${line} is not valid UTF-8; bad bytes were replaced with U+FFFD`));
    return lenientDecoder.decode(bytes);
  }
}

/** Decodes and parses one line. `issues` receives non-fatal notes (invalid UTF-8). */
export function decodeLine(line: RawLine, notes: DecodeNotes, issues: ReadIssue[]): DecodedLine {
  let bytes = line.bytes;
  if (line.number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    notes.bom = true;
    bytes = bytes.subarray(3);
  }
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) {
    notes.crlf = true;
    bytes = bytes.subarray(0, bytes.length - 1);
  }
  if (isBlank(bytes)) return { kind: "blank" };
  if (nestsDeeperThan(bytes)) return { kind: "error", issue: tooDeepIssue(line.number) };
  const text = decodeText(bytes, line.number, issues);
  try {
    return { kind: "value", value: JSON.parse(text) };
  } catch {
    // The engine's own parse message differs between V8 and JavaScriptCore; say it our way so
    // output is the same on every runtime.
    return line.terminated
      ? { kind: "error", issue: issue(line.number, "malformed-json", `Line ${line.number} is not valid JSON${jsonHint(text)}`) }
      : { kind: "error", issue: issue(line.number, "torn-line", `Line ${line.number} is cut off: the file ends in the middle of it`) };
  }
}

/** The issue for a line that nests deeper than `MAX_JSON_DEPTH`: it is not parsed at all. */
export function tooDeepIssue(line: number): ReadIssue {
  return issue(line, "too-deep", `Line ${line} nests values more than ${MAX_JSON_DEPTH} levels deep`);
}

/** A short hint at what the bad line starts with. */
function jsonHint(text: string): string {
  const start = text.trimStart().slice(0, 24);
  return start ? ` (it starts with ${JSON.stringify(start)}${text.trimStart().length > 24 ? "…" : ""})` : "";
}

/**
 * Decodes a line that should hold an entry object. Blank lines give undefined quietly; a
 * parse failure or a value that is not an object gives undefined and an issue.
 */
export function decodeObjectLine(line: RawLine, notes: DecodeNotes, issues: ReadIssue[]): Record<string, unknown> | undefined {
  const decoded = decodeLine(line, notes, issues);
  if (decoded.kind === "blank") return undefined;
  if (decoded.kind === "error") {
    issues.push(decoded.issue);
    return undefined;
  }
  const value = decoded.value;
  if (isObject(value)) return value;
  // Name the kind, not the value: a stray line may be megabytes long.
  const shown = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  issues.push(issue(line.number, "not-an-object", `Line ${line.number} is ${shown}, not an entry object`));
  return undefined;
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `value` is a valid session header line (see `headerProblem`). */
export function isHeader(value: unknown): boolean {
  return isObject(value) && value.type === "session" && headerProblem(value) === undefined;
}

/**
 * The issue for a first line that is not a usable header: a `bad-header` naming the field
 * when it is a `{"type":"session"}` line, else `not-a-session`.
 */
export function headerIssue(value: Record<string, unknown>, line: number): ReadIssue {
  const problem = value.type === "session" ? headerProblem(value) : undefined;
  return problem === undefined
    ? issue(line, "not-a-session", `Line ${line} should be a session header ({"type":"session","id":…}) but is not`)
    : issue(line, "bad-header", `Line ${line} is a session header but ${problem}`);
}
