/**
 * The line-level half of `repair`: given a file's bytes and what the reader found wrong with
 * them, the lines it should hold instead. Only what can be decided without guessing: a BOM,
 * CRLF endings, NUL padding, records glued on one line, records cut off by a crash (set aside
 * for the `.rejected` file, never dropped), a missing final newline. A damaged line that is
 * none of these is left exactly as it is. Pure: bytes in, lines and a report out.
 * @module
 */
import type { ReadIssue } from "../read/issue.ts";
import { isCutOffObject, nestedEnd, parseSpan, skipSpace, type Span } from "./json-spans.ts";
import { describeRanges, lineRanges, type RepairChange } from "./repair-change.ts";

/** The repaired lines (without their `\n`) and what was done to get them. */
export interface LineRepairs {
  lines: Uint8Array[];
  /** The line of the original file each new line comes from (1-based). */
  origins: number[];
  /** Bytes set aside (cut-off records), in file order: they go to the `.rejected` file. */
  rejected: Uint8Array[];
  changes: RepairChange[];
  /** Damaged lines left as they are, with the reader's description. */
  left: ReadIssue[];
}

const NUL = 0x00;
const CR = 0x0d;
const OPEN_BRACE = 0x7b;
const QUOTE = 0x22;

/** How one damaged segment (a line, or a part of one between NUL runs) comes apart. */
interface Pieces {
  records: Span[];
  cutOff: Span[];
}

/** The end of the object starting at `at` when it is whole and parses, else -1. */
function wholeObjectEnd(bytes: Uint8Array, at: number, end: number, entryLike: boolean): number {
  if (bytes[at] !== OPEN_BRACE) return -1;
  const close = nestedEnd(bytes, at, end);
  if (close < 0) return -1;
  const value = parseSpan(bytes, at, close) as Record<string, unknown> | undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return -1;
  // After a cut-off record, only what looks like an entry counts as the next record: a content
  // block inside the cut-off part (`{"type":"text",…}`) is whole too, but has no timestamp.
  if (entryLike && (typeof value.type !== "string" || !("timestamp" in value))) return -1;
  return close;
}

/**
 * The first place after `from` where a whole entry starts and is followed by nothing or by
 * another `{`: where the record glued onto a cut-off one begins. A raw `{"` is always the start
 * of an object (inside a string a quote is escaped), so every candidate is a real object start.
 */
function nextRecordStart(bytes: Uint8Array, from: number, end: number): number {
  for (let q = bytes.indexOf(OPEN_BRACE, from); q >= 0 && q < end; q = bytes.indexOf(OPEN_BRACE, q + 1)) {
    if (bytes[skipSpace(bytes, q + 1, end)] !== QUOTE) continue;
    const close = wholeObjectEnd(bytes, q, end, true);
    if (close < 0) continue;
    const next = skipSpace(bytes, close, end);
    if (next === end || bytes[next] === OPEN_BRACE) return q;
  }
  return -1;
}

/** Whole records and cut-off ones making up `bytes[start, end)`, or null for anything else. */
function piecesOf(bytes: Uint8Array, start: number, end: number): Pieces | null {
  const pieces: Pieces = { records: [], cutOff: [] };
  let at = skipSpace(bytes, start, end);
  while (at < end) {
    const close = wholeObjectEnd(bytes, at, end, false);
    if (close >= 0) {
      pieces.records.push({ start: at, end: close });
      at = skipSpace(bytes, close, end);
      continue;
    }
    if (bytes[at] !== OPEN_BRACE) return null;
    const next = nextRecordStart(bytes, at + 1, end);
    const cutEnd = next >= 0 ? next : end;
    if (!isCutOffObject(bytes, at, cutEnd)) return null;
    pieces.cutOff.push({ start: at, end: cutEnd });
    at = cutEnd;
  }
  return pieces;
}

/** What a damaged line becomes, or null to leave it as it is. */
function repairLine(bytes: Uint8Array): { records: Uint8Array[]; cutOff: Uint8Array[]; nulBytes: number } | null {
  const out = { records: [] as Uint8Array[], cutOff: [] as Uint8Array[], nulBytes: 0 };
  let start = 0;
  // NUL bytes never occur in JSON text (not even inside strings): they are padding, and split the line.
  while (start <= bytes.length) {
    let end = bytes.indexOf(NUL, start);
    if (end < 0) end = bytes.length;
    const pieces = piecesOf(bytes, start, end);
    if (pieces === null) return null;
    out.records.push(...pieces.records.map((s) => bytes.subarray(s.start, s.end)));
    out.cutOff.push(...pieces.cutOff.map((s) => bytes.subarray(s.start, s.end)));
    let next = end;
    while (next < bytes.length && bytes[next] === NUL) next++;
    out.nulBytes += next - end;
    if (end === bytes.length) break;
    start = next;
  }
  return out;
}

/**
 * Calls `onLine` with each line of `bytes` (a view, without its `\n`), numbered as the reader
 * numbers them: a last line without a newline counts when it is not empty.
 */
function forEachLine(bytes: Uint8Array, onLine: (line: Uint8Array, number: number, terminated: boolean) => void): void {
  let number = 0;
  for (let start = 0; start < bytes.length;) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    onLine(bytes.subarray(start, end), ++number, newline >= 0);
    start = end + 1;
  }
}

const DAMAGED = new Set(["malformed-json", "torn-line"]);

/**
 * The repaired lines of a file whose reader reported `issues` (from `parseSession`): only the
 * lines the reader flagged are taken apart; every other line keeps its bytes.
 *
 * @example Two records glued together
 * ```ts
 * import { parseSession } from "../read/read-session.ts";
 * const bytes = new TextEncoder().encode('{"type":"session","id":"s","timestamp":"t","cwd":"/"}{"type":"x","id":"a","parentId":null,"timestamp":"t"}\n');
 * const repairs = planLineRepairs(bytes, parseSession(bytes).issues);
 * repairs.lines.length; // 2
 * repairs.changes[0].kind; // "glued-records"
 * ```
 */
export function planLineRepairs(bytes: Uint8Array, issues: readonly ReadIssue[]): LineRepairs {
  const damaged = new Map(issues.filter((i) => DAMAGED.has(i.code)).map((i) => [i.line, i]));
  const hasBom = issues.some((i) => i.code === "bom");
  const hasCrlf = issues.some((i) => i.code === "crlf");
  const result: LineRepairs = { lines: [], origins: [], rejected: [], changes: [], left: [] };
  const crlfLines: number[] = [];
  const keep = (line: Uint8Array, origin: number) => {
    result.lines.push(line);
    result.origins.push(origin);
  };
  forEachLine(bytes, (raw, number, terminated) => {
    let line = raw;
    if (number === 1 && hasBom && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) {
      line = line.subarray(3);
      result.changes.push({ kind: "bom", line: 1, message: "Removed the UTF-8 byte order mark" });
    }
    if (hasCrlf && line[line.length - 1] === CR) {
      line = line.subarray(0, line.length - 1);
      crlfLines.push(number);
    }
    const issue = damaged.get(number);
    const repaired = issue ? repairLine(line) : null;
    if (issue && repaired === null) result.left.push(issue);
    if (!repaired) {
      keep(line, number);
      if (!terminated) {
        result.changes.push({ kind: "missing-newline", line: number, message: "The file did not end with a newline; added one" });
      }
      return;
    }
    const { records, cutOff, nulBytes } = repaired;
    for (const record of records) keep(record, number);
    result.rejected.push(...cutOff);
    if (nulBytes > 0) {
      result.changes.push({ kind: "nul-padding", line: number, message: `Dropped ${nulBytes} NUL byte${nulBytes === 1 ? "" : "s"} (padding left by a crash)` });
    }
    if (cutOff.length > 0) {
      const sizes = cutOff.map((c) => `${c.length} bytes`).join(", ");
      const what = cutOff.length === 1 ? "A record cut off before its end" : `${cutOff.length} records cut off before their end`;
      const where = !terminated && records.length === 0 ? "; the file ended in the middle of it" : "";
      const kept = records.length === 0 ? "" : records.length === 1 ? "; the whole record on the line is kept on a line of its own" : `; the ${records.length} whole records on the line are kept, one per line`;
      result.changes.push({ kind: "cut-off-record", line: number, message: `${what} (${sizes}${where}) is set aside in the .rejected file${kept}` });
    } else if (records.length > 1) {
      result.changes.push({ kind: "glued-records", line: number, message: `${records.length} records glued together on one line now have a line each` });
    }
    if (!terminated && records.length > 0) {
      result.changes.push({ kind: "missing-newline", line: number, message: "The file did not end with a newline; added one" });
    }
  });
  if (crlfLines.length > 0) {
    const ranges = lineRanges(crlfLines);
    result.changes.push({ kind: "crlf", line: crlfLines[0], lines: ranges, message: `CRLF line endings on ${describeRanges(ranges)} are now LF` });
  }
  result.changes.sort((a, b) => a.line - b.line);
  return result;
}
