/**
 * The tree-level half of `repair`: the structural problems `check` finds (missing parents,
 * cycles, duplicate ids) become judgements, and the two named fixes, asked for explicitly,
 * re-parent entries by changing only the bytes of their `parentId` value.
 * @module
 */
import type { SessionEntry } from "../format/types.ts";
import type { ReadIssue } from "../read/issue.ts";
import { SessionTree } from "../tree/session-tree.ts";
import { replaceSpan, valueSpan } from "./json-spans.ts";
import type { Judgement, RepairChange, RepairFix } from "./repair-change.ts";

/** The entries of a parsed file and the lines (without `\n`) they sit on, edited in place. */
export interface EditableTree {
  lines: Uint8Array[];
  entries: SessionEntry[];
  /** 1-based line of each entry in `lines`. */
  entryLines: number[];
  /** The original line of each line, for reports. */
  origins: number[];
}

const FIXES: Partial<Record<ReadIssue["code"], RepairFix | null>> = {
  "missing-parent": "--relink-orphans",
  "cycle": "--break-cycles",
  "self-parent": "--break-cycles",
  "duplicate-id": null,
};

/** The judgements among a file's structural issues; `canFix` false when the bytes cannot be edited (an old format). */
export function judgementsOf(issues: readonly ReadIssue[], origins: readonly number[], canFix: boolean): Judgement[] {
  const judgements: Judgement[] = [];
  for (const i of issues) {
    const fix = FIXES[i.code];
    if (fix === undefined) continue;
    const line = origins[i.line - 1] ?? i.line;
    const message = i.message + (fix !== null && !canFix ? " (run `pi-session migrate` first: only a version 3 file can be re-parented)" : "");
    judgements.push({ line, code: i.code, ...(i.entryId !== undefined && { entryId: i.entryId }), message, fix: canFix ? fix : null });
  }
  return judgements;
}

/** The nearest entry before `index` in file order that its id finds (not hidden by a later duplicate). */
function previousEntry(tree: SessionTree, index: number): string | null {
  for (let k = index - 1; k >= 0; k--) {
    const e = tree.entries[k];
    if (typeof e.id === "string" && tree.byId.get(e.id) === e) return e.id;
  }
  return null;
}

const encoder = new TextEncoder();

/** Sets the parent of entry `index` in its line's bytes and in memory; false when its line has no `parentId`. */
function reparent(t: EditableTree, index: number, parentId: string | null): boolean {
  const at = t.entryLines[index] - 1;
  const span = valueSpan(t.lines[at], "parentId");
  if (span === null) return false;
  t.lines[at] = replaceSpan(t.lines[at], span, encoder.encode(JSON.stringify(parentId)));
  (t.entries[index] as { parentId: string | null }).parentId = parentId;
  return true;
}

function change(t: EditableTree, kind: RepairChange["kind"], index: number, message: string): RepairChange {
  const entry = t.entries[index];
  return { kind, line: t.origins[t.entryLines[index] - 1], entryId: entry.id, message };
}

/** `--relink-orphans`: an entry whose parent is not in the file gets the entry before it as its parent. */
export function relinkOrphans(t: EditableTree): RepairChange[] {
  const tree = new SessionTree(t.entries);
  const changes: RepairChange[] = [];
  t.entries.forEach((entry, index) => {
    const parent = entry.parentId;
    if (typeof entry.id !== "string" || typeof parent !== "string" || parent === entry.id || tree.byId.has(parent)) return;
    const to = previousEntry(tree, index);
    if (!reparent(t, index, to)) return;
    const now = to === null ? "it is now a root (no entry comes before it)" : `its parent is now "${to}", the entry before it`;
    changes.push(change(t, "relink-orphan", index, `Entry "${entry.id}" had parent "${parent}", which is not in the file; ${now}`));
  });
  return changes;
}

/**
 * `--break-cycles`: in each parent cycle, the entry that closes it (the first, in file order,
 * whose parent is not before it: appends only ever point back) gets the entry before it as
 * its parent. New parents always point back, so this ends.
 */
export function breakCycles(t: EditableTree): RepairChange[] {
  const changes: RepairChange[] = [];
  for (let pass = 0; pass <= t.entries.length; pass++) {
    const tree = new SessionTree(t.entries);
    const position = new Map(t.entries.map((e, i) => [e, i]));
    const found = tree.findIssues(t.entryLines).filter((i) => i.code === "cycle" || i.code === "self-parent");
    if (found.length === 0) break;
    for (const issue of found) {
      const start = tree.byId.get(issue.entryId ?? "");
      if (start === undefined) continue;
      const parentOf = (e: SessionEntry) => (typeof e.parentId === "string" ? tree.byId.get(e.parentId) : undefined);
      const members: SessionEntry[] = [];
      for (let e: SessionEntry | undefined = start; e !== undefined && members.length <= t.entries.length; e = parentOf(e)) {
        members.push(e);
        if (parentOf(e) === start) break;
      }
      const closer = members
        .filter((m) => (position.get(parentOf(m)!) ?? -1) >= position.get(m)!)
        .sort((a, b) => position.get(a)! - position.get(b)!)[0];
      if (closer === undefined) continue;
      const index = position.get(closer)!;
      const from = closer.parentId;
      const to = previousEntry(tree, index);
      if (!reparent(t, index, to)) continue;
      const now = to === null ? "it is now a root" : `its parent is now "${to}", the entry before it`;
      changes.push(change(t, "break-cycle", index, `Entry "${closer.id}" had parent "${from}", which closed a parent cycle; ${now}`));
    }
  }
  return changes;
}
