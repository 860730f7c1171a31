/**
 * The export viewer's sidebar rows from the API's tree rows (`tree --json`), with the lines the
 * terminal tree draws before each row: `├─`/`└─` on a fork's branch, `│ ` while a later
 * branch of that fork is still to come. A fork's branches are the rows whose parent has more
 * than one row below it; at most `MAX_LEVELS` levels of lines are drawn. Pure.
 * @module
 */
import type { TreeRow } from "../../../export/html/viewer/tree-model.ts";
import type { TreeRowValue } from "../views/values.ts";

/** Levels of lines drawn at the most: deeper, only the innermost, so the text keeps room in a narrow sidebar. */
const MAX_LEVELS = 10;

/**
 * Sidebar rows for tree rows in their order (pi's: depth grows on a fork's branch and once more
 * below it).
 *
 * @example
 * ```ts
 * sidebarRows([{ id: "a", parentId: null, depth: 0, type: "message", role: "user", active: true, text: "hi" }])[0].guide; // ""
 * ```
 */
export function sidebarRows(rows: readonly TreeRowValue[]): TreeRow[] {
  const children = new Map<string | null, number>();
  for (const row of rows) children.set(row.parentId, (children.get(row.parentId) ?? 0) + 1);
  const placed = new Map<string | null, number>();
  // open[d]: the branch that starts at depth d has a later sibling still to come.
  const open: boolean[] = [];
  return rows.map((row) => {
    const depth = Math.max(0, row.depth);
    const starts = depth > 0 && (children.get(row.parentId) ?? 0) > 1;
    open.length = Math.min(open.length, depth + 1);
    let guide = "";
    for (let d = 1; d < depth; d++) guide += open[d] ? "│ " : "  ";
    if (starts) {
      const index = (placed.get(row.parentId) ?? 0) + 1;
      placed.set(row.parentId, index);
      const last = index === children.get(row.parentId);
      guide += last ? "└─" : "├─";
      open[depth] = !last;
    } else if (depth > 0) guide += open[depth] ? "│ " : "  ";
    if (depth > MAX_LEVELS) guide = guide.slice(-2 * MAX_LEVELS);
    return { id: row.id, depth, text: row.text, kind: row.role ?? row.type, ...(row.label !== undefined ? { label: row.label } : {}), guide };
  });
}
