/**
 * What `repair` reports: each change it makes (or would make) with the line of the file as
 * it was, and each problem it leaves for a person to decide, with the flag that would fix it.
 * @module
 */
import type { IssueCode } from "../read/issue.ts";

/** Stable kinds; `repair --json` prints them. */
export type RepairKind =
  | "bom"
  | "crlf"
  | "nul-padding"
  | "glued-records"
  | "cut-off-record"
  | "missing-newline"
  | "relink-orphan"
  | "break-cycle";

/** One change. `line` is 1-based in the file as it was (the first line, for `crlf`). */
export interface RepairChange {
  kind: RepairKind;
  line: number;
  /** For a change on many lines (`crlf`): the lines as `[first, last]` ranges. */
  lines?: [number, number][];
  entryId?: string;
  message: string;
}

/** The named fixes for problems that need a judgement. */
export type RepairFix = "--relink-orphans" | "--break-cycles";

/** A problem `repair` does not fix on its own: `fix` names the flag that would, if any. */
export interface Judgement {
  line: number;
  code: IssueCode;
  entryId?: string;
  message: string;
  fix: RepairFix | null;
}

/** `[first, last]` ranges of sorted line numbers. */
export function lineRanges(lines: readonly number[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && line === last[1] + 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}

/** `lines 1-3, 7` for people. */
export function describeRanges(ranges: readonly [number, number][]): string {
  const count = ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
  const shown = ranges.slice(0, 5).map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
  return `${count === 1 ? "line" : "lines"} ${shown}${ranges.length > 5 ? ", …" : ""}`;
}
