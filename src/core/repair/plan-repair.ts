/**
 * `repair` decided in one pure function: the bytes of a session file in; the repaired bytes,
 * the bytes set aside, every change with its line, and what is left for a judgement out. It
 * works from what the reader and `check` find, so the two never disagree on what is wrong.
 * @module
 */
import { CURRENT_SESSION_VERSION } from "../format/types.ts";
import type { ReadIssue } from "../read/issue.ts";
import { parseSession } from "../read/read-session.ts";
import { SessionTree } from "../tree/session-tree.ts";
import { planLineRepairs } from "./line-repairs.ts";
import type { Judgement, RepairChange } from "./repair-change.ts";
import { breakCycles, judgementsOf, relinkOrphans } from "./tree-repairs.ts";

/** The named fixes to apply (each needs a judgement, so each is asked for). */
export interface RepairOptions {
  relinkOrphans?: boolean;
  breakCycles?: boolean;
}

/** What `planRepair` decides. */
export type RepairPlan =
  | {
    kind: "not-a-session";
    /** The reader's issues about the file as it is. */
    issues: ReadIssue[];
  }
  | {
    kind: "repair";
    /** The whole repaired file (the same bytes as the input when `changes` is empty). */
    bytes: Uint8Array;
    /** The bytes to add to the `.rejected` file beside the session, one piece per line; empty if none. */
    rejected: Uint8Array;
    changes: RepairChange[];
    /** Damaged lines `repair` cannot take apart without guessing: left exactly as they are. */
    left: ReadIssue[];
    /** Problems in the repaired file that need a person's decision (or a named fix). */
    judgements: Judgement[];
  };

const NEWLINE = new Uint8Array([0x0a]);

function joinLines(lines: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(lines.reduce((n, l) => n + l.length + 1, 0));
  let at = 0;
  for (const line of lines) {
    out.set(line, at);
    at += line.length;
    out.set(NEWLINE, at++);
  }
  return out;
}

/**
 * The repair of the session file holding `original`.
 *
 * @example A record glued onto a cut-off one
 * ```ts
 * const text = '{"type":"session","version":3,"id":"s","timestamp":"2024-01-01T00:00:00Z","cwd":"/"}\n' +
 *   '{"type":"message","id":"a","par' + '{"type":"custom","customType":"x","id":"b","parentId":null,"timestamp":"2024-01-01T00:00:00Z"}\n';
 * const plan = planRepair(new TextEncoder().encode(text));
 * plan.kind === "repair" && plan.changes.map((c) => c.kind); // ["cut-off-record"]
 * ```
 */
export function planRepair(original: Uint8Array, options: RepairOptions = {}): RepairPlan {
  const before = parseSession(original);
  const lines = planLineRepairs(original, before.issues);
  let bytes = lines.changes.length === 0 ? original : joinLines(lines.lines);
  let file = bytes === original ? before : parseSession(bytes);
  if (file.notSession) return { kind: "not-a-session", issues: before.issues };
  const changes = [...lines.changes];
  // Only a version 3 file holds on disk the ids and parents the tree is built from.
  const editable = file.version === CURRENT_SESSION_VERSION && !file.migrated;
  if (editable && (options.relinkOrphans || options.breakCycles)) {
    const tree = { lines: lines.lines, entries: file.entries, entryLines: file.entryLines, origins: lines.origins };
    const fixes = [...(options.relinkOrphans ? relinkOrphans(tree) : []), ...(options.breakCycles ? breakCycles(tree) : [])];
    if (fixes.length > 0) {
      changes.push(...fixes);
      bytes = joinLines(tree.lines);
      file = parseSession(bytes);
    }
  }
  const issues = new SessionTree(file.entries).findIssues(file.entryLines);
  return {
    kind: "repair",
    bytes,
    rejected: joinLines(lines.rejected),
    changes: changes.sort((a, b) => a.line - b.line),
    left: lines.left,
    judgements: judgementsOf(issues, lines.origins, editable),
  };
}
