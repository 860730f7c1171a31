/**
 * `treeRows` for a big tree whose entries carry their row facts (`tree`'s lean read): the same
 * rows, from the forest held as index arrays (each node's parent, its children as ranges of one
 * array) instead of a node object, a children list and a map entry per entry. No folds, no search.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { SessionTree } from "../core/tree/session-tree.ts";
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

function time(entry: SessionEntry): number {
  return new Date(entry.timestamp).getTime();
}

/**
 * The forest of `SessionTree.getTree()` as arrays over its nodes (the tree's entries by id, in
 * `byId` order): children in file order sorted by time, cycles cut at their first member in
 * that order, which then becomes a root; `parent` is -1 for a root.
 */
interface Forest {
  nodes: SessionEntry[];
  /** Each node's index by entry id. */
  index: Map<unknown, number>;
  parent: Int32Array;
  /** Node i's children are `kids[first[i]]` to `kids[first[i] + count[i] - 1]`. */
  first: Int32Array;
  count: Int32Array;
  kids: Int32Array;
  roots: number[];
}

function forestOf(tree: SessionTree): Forest {
  const nodes: SessionEntry[] = [];
  const index = new Map<unknown, number>();
  for (const [id, entry] of tree.byId) {
    index.set(id, nodes.length);
    nodes.push(entry);
  }
  const size = nodes.length;
  const parent = new Int32Array(size);
  const count = new Int32Array(size);
  const roots: number[] = [];
  for (let i = 0; i < size; i++) {
    const { id, parentId } = nodes[i];
    const at = parentId === null || parentId === id ? undefined : index.get(parentId);
    parent[i] = at ?? -1;
    if (at === undefined) roots.push(i);
    else count[at]++;
  }
  const first = new Int32Array(size);
  for (let i = 1; i < size; i++) first[i] = first[i - 1] + count[i - 1];
  const kids = new Int32Array(size);
  const filled = new Int32Array(size);
  for (let i = 0; i < size; i++) if (parent[i] >= 0) kids[first[parent[i]] + filled[parent[i]]++] = i;
  const forest = { nodes, index, parent, first, count, kids, roots };
  // Each node's children are sorted when the walk from a root first reaches it, as getTree does.
  const reached = new Uint8Array(size);
  let reachedCount = 0;
  const sortAll = (starts: number[]) => {
    const stack = [...starts];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (reached[node]) continue;
      reached[node] = 1;
      reachedCount++;
      sortKids(forest, node);
      for (let k = first[node]; k < first[node] + count[node]; k++) stack.push(kids[k]);
    }
  };
  sortAll(roots);
  if (reachedCount < size) {
    for (let i = 0; i < size; i++) {
      if (reached[i]) continue;
      // Cut the cycle: take this node from its parent's children and make it a root.
      const from = parent[i];
      const end = first[from] + count[from];
      let k = first[from];
      while (k < end && kids[k] !== i) k++;
      if (k < end) {
        kids.copyWithin(k, k + 1, end);
        count[from]--;
      }
      parent[i] = -1;
      roots.push(i);
      sortAll([i]);
    }
  }
  return forest;
}

/** Sorts a node's children by time, stably (the comparison of `getTree`, on the same order). */
function sortKids(forest: Forest, node: number): void {
  const { nodes, first, count, kids } = forest;
  if (count[node] < 2) return;
  const sorted = Array.from(kids.subarray(first[node], first[node] + count[node]));
  sorted.sort((a, b) => time(nodes[a]) - time(nodes[b]));
  kids.set(sorted, first[node]);
}

/**
 * The rows of `treeRows(tree, { filter, facts })`, the same objects and fields.
 *
 * @example
 * ```ts
 * // factRows(tree, { filter: "user-only", facts: (entry) => factsOf(entry) })
 * ```
 */
export function factRows(tree: SessionTree, options: FactRowsOptions): TreeRow[] {
  const { filter, facts } = options;
  const forest = forestOf(tree);
  const { nodes, parent, first, count, kids, roots } = forest;
  const leafId = tree.leafId;
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
  const push = (from: number, to: number, list: ArrayLike<number>, row: number) => {
    // Pushed in reverse display order (the active one first, then the others in order), so they pop in order.
    for (let k = to - 1; k >= from; k--) if (!active[list[k]]) stack.push(list[k], row);
    for (let k = to - 1; k >= from; k--) if (active[list[k]]) stack.push(list[k], row);
  };
  push(0, roots.length, roots, -1);
  while (stack.length > 0) {
    const row = stack.pop()!;
    const node = stack.pop()!;
    const entry = nodes[node];
    const fact = facts(entry);
    const label = tree.labels.get(entry.id);
    const shown = fact.hidden !== "always" && (fact.hidden !== "unless-leaf" || entry.id === leafId) &&
      filterKeeps(filter, { type: entry.type, role: fact.role, labelled: label !== undefined }, SETTINGS_TYPES);
    if (!shown) {
      push(first[node], first[node] + count[node], kids, row);
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
    push(first[node], first[node] + count[node], kids, rows.length - 1);
  }
  layoutRows(rows, parents);
  return rows;
}
