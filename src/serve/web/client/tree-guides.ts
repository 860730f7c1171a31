/**
 * The export viewer's sidebar rows from the API's tree rows (`tree --json`): the lines drawn
 * before each row (`├─`/`└─` where a fork's branch starts, `│ ` while a later branch of it is
 * still to come), told from the rows' depths, which grow only below a fork; at most
 * `MAX_LEVELS` levels of them. Pure.
 * @module
 */
import type { TreeRow } from "../../../export/html/viewer/tree-model.ts";
import type { TreeRowValue } from "../views/values.ts";

/** Levels of lines drawn at the most: deeper, only the innermost, so the text keeps room in a narrow sidebar. */
const MAX_LEVELS = 10;

/**
 * Sidebar rows for tree rows in their order. A row starts a branch when the row before it is
 * shallower, deeper, or not its parent; a branch is the last of its fork when no other starts
 * at its depth before the tree climbs above it.
 *
 * @example
 * ```ts
 * sidebarRows([{ id: "a", parentId: null, depth: 0, type: "message", role: "user", active: true, text: "hi" }])[0].guide; // ""
 * ```
 */
export function sidebarRows(rows: readonly TreeRowValue[]): TreeRow[] {
  const out: TreeRow[] = new Array(rows.length);
  // Walking back: later[d] says whether a branch at depth d starts further down, within the fork.
  const later: boolean[] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    const depth = Math.max(0, row.depth);
    const before = rows[i - 1];
    const starts = depth > 0 && (before === undefined || before.depth !== depth || row.parentId !== before.id);
    later.length = Math.min(later.length, depth + 1);
    let guide = "";
    for (let d = 1; d < depth; d++) guide += later[d] ? "│ " : "  ";
    if (depth > 0) guide += starts ? (later[depth] ? "├─" : "└─") : later[depth] ? "│ " : "  ";
    if (starts) later[depth] = true;
    if (depth > MAX_LEVELS) guide = guide.slice(-2 * MAX_LEVELS);
    out[i] = { id: row.id, depth, text: row.text, kind: row.role ?? row.type, ...(row.label !== undefined ? { label: row.label } : {}), guide };
  }
  return out;
}
