/**
 * `tree`: a session's whole entry tree as pi's /tree draws it, one row per shown entry with its
 * depth, the active branch marked, labels and one line of text; the rows a filter keeps.
 * @module
 */
import type { SessionTree } from "../core/tree/session-tree.ts";
import { TREE_FILTERS, type TreeFilter, type TreeRow, treeRows } from "../render/tree-rows.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { PREVIEW_READ } from "../core/read/lean-entry.ts";
import { loadSession } from "./load.ts";
import { reportSkipped } from "./skipped-note.ts";

export interface TreeOptions {
  /** A session reference: path, id, unique id prefix, or `@`. */
  ref: string;
  /** Which entries to show (default `default`: settings entries hidden). */
  filter?: TreeFilter;
}

/** One row of `tree --json`. */
export interface TreeRowJson {
  id: string;
  parentId: string | null;
  depth: number;
  type: string;
  role?: string;
  label?: string;
  active: boolean;
  text: string;
}

/** What `tree --json` prints (docs/schema/tree.schema.json), without `schemaVersion`. */
export interface TreeJson {
  leafId: string | null;
  filter: TreeFilter;
  rows: TreeRowJson[];
}

export interface TreeResult {
  value: TreeJson;
  /** The rows to draw (spans, gutters) and the session's path and tree (every entry id). */
  rows: TreeRow[];
  path: string;
  tree: SessionTree;
}

/** Checks a filter name (undefined: `fallback`). */
export function checkTreeFilter(filter: string | undefined, fallback: TreeFilter): TreeFilter {
  if (filter === undefined) return fallback;
  if ((TREE_FILTERS as readonly string[]).includes(filter)) return filter as TreeFilter;
  throw new QueryError("bad-option", `Unknown filter "${filter}"`, `Use one of ${TREE_FILTERS.join(", ")}`);
}

/** One row of `tree --json`. */
export function treeRowJson(row: TreeRow): TreeRowJson {
  return {
    id: row.entryId,
    parentId: row.parentId,
    depth: row.depth,
    type: row.type,
    ...(row.role !== undefined ? { role: row.role } : {}),
    ...(row.label !== undefined ? { label: row.label } : {}),
    active: row.onActivePath,
    text: row.text,
  };
}

/**
 * `JSON.stringify(treeRowJson(row), null, 2)` with `indent` at the start of each line, written
 * without the object (a 146k-row `tree --json` spent most of its time making and stringifying
 * them); undefined for a row whose id is not a string (a broken file), which that must print.
 *
 * @example
 * ```ts
 * // treeRowJsonText(row, "    ") === "    " + JSON.stringify(treeRowJson(row), null, 2).replaceAll("\n", "\n    ")
 * ```
 */
export function treeRowJsonText(row: TreeRow, indent: string): string | undefined {
  if (typeof row.entryId !== "string" || (row.parentId !== null && typeof row.parentId !== "string")) return undefined;
  const next = ",\n" + indent + "  ";
  let text = indent + "{\n" + indent + '  "id": ' + JSON.stringify(row.entryId) + next + '"parentId": ' + JSON.stringify(row.parentId) +
    next + '"depth": ' + JSON.stringify(row.depth) + next + '"type": ' + JSON.stringify(row.type);
  if (row.role !== undefined) text += next + '"role": ' + JSON.stringify(row.role);
  if (row.label !== undefined) text += next + '"label": ' + JSON.stringify(row.label);
  return text + next + '"active": ' + JSON.stringify(row.onActivePath) + next + '"text": ' + JSON.stringify(row.text) + "\n" + indent + "}";
}

/** What `tree --json` prints of `rows`. */
export function treeJson(leafId: string | null, filter: TreeFilter, rows: readonly TreeRow[]): TreeJson {
  return { leafId, filter, rows: rows.map(treeRowJson) };
}

/**
 * The rows of a session's tree. Skipped lines are reported as a warning, other problems of the
 * file as a notice (the rows are still given).
 */
export async function sessionTree(env: QueryEnv, options: TreeOptions): Promise<TreeResult> {
  const filter = checkTreeFilter(options.filter, "default");
  // Preview entries: what a row shows, not the texts (a 1 GB session stays small).
  const { path, file, tree } = await loadSession(env, options.ref, PREVIEW_READ);
  const rows = treeRows(tree, { filter, home: env.storage.home });
  const problems = file.issues.length + tree.findIssues(file.entryLines).length;
  // Lines left out are said first (the tree lacks them); other problems get the general note.
  if (!reportSkipped(env, path, file.issues) && problems > 0) env.report.notice(`${path} has ${problems} problem${problems === 1 ? "" : "s"}; run \`pi-session check\` on it`);
  const value = treeJson(tree.leafId, filter, rows);
  return { value, rows, path, tree };
}
