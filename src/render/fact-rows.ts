/**
 * `treeRows` for a big tree whose entries carry their row facts (`tree`'s lean read): the same
 * rows, from the forest held as index arrays (`EntryForest`) instead of a node object, a
 * children list and map entries per entry. No folds, no search.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { EntryForest } from "../core/tree/entry-forest.ts";
import { filterKeeps, type TreeFilter } from "../core/tree/tree-filter.ts";
import type { Span } from "./entry-line.ts";
import { layoutRows, SpanRow } from "./tree-layout.ts";
import { type RowFacts, SETTINGS_TYPES, type TreeRow } from "./tree-rows.ts";

/** What `factRows` needs beside the tree. */
export interface FactRowsOptions {
  filter: TreeFilter;
  /** The facts of each entry. */
  facts: (entry: SessionEntry) => RowFacts;
}

/**
 * The rows `treeRows(new SessionTree(entries), { filter, facts })` gives, the same objects and
 * fields, from `new EntryForest(entries)`.
 *
 * @example
 * ```ts
 * // factRows(new EntryForest(entries), { filter: "user-only", facts: (entry) => factsOf(entry) })
 * ```
 */
export function factRows(forest: EntryForest, options: FactRowsOptions): TreeRow[] {
  const { filter, facts } = options;
  const { nodes, parent, roots, leafId } = forest;
  // The path from the leaf up to its root.
  const active = new Uint8Array(nodes.length);
  const leaf = leafId === null ? undefined : forest.index.get(leafId);
  for (let node = leaf ?? -1; node >= 0 && !active[node]; node = parent[node]) active[node] = 1;
  // The line each tool call's result shows, later calls of an id winning.
  const callSpans = new Map<string, Span[]>();
  for (const entry of nodes) for (const [id, spans] of facts(entry).calls ?? []) callSpans.set(id, spans);

  // Pre-order over the forest, the child on the active path first at every level; a stack of
  // (node, index of the nearest visible ancestor's row) pairs.
  const rows: TreeRow[] = [];
  const parents: number[] = [];
  const stack: number[] = [];
  const push = (list: ArrayLike<number>, row: number) => {
    // Pushed in reverse display order (the active one first, then the others in order), so they pop in order.
    for (let k = list.length - 1; k >= 0; k--) if (!active[list[k]]) stack.push(list[k], row);
    for (let k = list.length - 1; k >= 0; k--) if (active[list[k]]) stack.push(list[k], row);
  };
  push(roots, -1);
  while (stack.length > 0) {
    const row = stack.pop()!;
    const node = stack.pop()!;
    const entry = nodes[node];
    const fact = facts(entry);
    const label = forest.labels.get(entry.id);
    const shown = fact.hidden !== "always" && (fact.hidden !== "unless-leaf" || entry.id === leafId) &&
      filterKeeps(filter, { type: entry.type, role: fact.role, labelled: label !== undefined }, SETTINGS_TYPES);
    if (!shown) {
      push(forest.childrenOf(node), row);
      continue;
    }
    const spans = (fact.callId !== undefined ? callSpans.get(fact.callId) : undefined) ?? fact.spans ?? [];
    const made = new SpanRow(entry.id, String(entry.type), spans, active[node] === 1);
    if (label !== undefined) {
      made.label = label.label;
      made.labelTimestamp = label.timestamp;
    }
    if (fact.role !== undefined) made.role = fact.role;
    rows.push(made);
    parents.push(row);
    push(forest.childrenOf(node), rows.length - 1);
  }
  layoutRows(rows, parents);
  return rows;
}
