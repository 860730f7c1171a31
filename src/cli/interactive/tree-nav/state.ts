/**
 * The tree navigator (pi's /tree) as a pure reducer: moving, paging, folding and segment
 * jumps, the five filters, search, label editing and the Enter action menu. Rows come from
 * `treeRows`; a label write is an effect, and `treeReloaded` brings the new tree back.
 * @module
 */
import type { SessionTree } from "../../../core/tree/session-tree.ts";
import { TREE_FILTERS, type TreeFilter, type TreeRow, treeRows } from "../../../render/tree-rows.ts";
import { chord, type Key } from "../keys.ts";
import { editLine } from "../line-input.ts";
import type { PromptState } from "../prompt.ts";

/** What Enter's menu can do after the navigator closes (labelling happens inside). */
export type TreeAction = "context" | "fork" | "clone" | "id";

/** The menu, in order. */
export const MENU: readonly { action: TreeAction | "label"; text: string }[] = [
  { action: "context", text: "Show the context at this entry" },
  { action: "fork", text: "Fork: a new session ending here (before a user message, which is printed)" },
  { action: "clone", text: "Clone: a new session with the branch up to this entry" },
  { action: "id", text: "Print the entry id" },
  { action: "label", text: "Label this entry" },
];

export type TreeNavEffect = { kind: "label"; targetId: string; label: string | undefined };

export type TreeNavMode =
  | { kind: "browse" }
  | { kind: "label"; entryId: string; input: string }
  | { kind: "menu"; entryId: string; index: number };

export interface TreeNavState extends PromptState<TreeNavEffect, { action: TreeAction; entryId: string }> {
  tree: SessionTree;
  filter: TreeFilter;
  search: string;
  folded: ReadonlySet<string>;
  /** Visible rows (derived from the fields above). */
  rows: TreeRow[];
  selected: number;
  /** The entry the user last moved to: a filter that hides it selects its nearest visible ancestor, and it comes back when shown again. */
  wantedId: string | null;
  showLabelTimes: boolean;
  /** Rows on screen, and the step of PageUp/PageDown. */
  pageSize: number;
  home?: string;
  mode: TreeNavMode;
  status?: { text: string; error: boolean };
}

/** A navigator on `tree`, the active leaf selected. */
export function initialTreeNav(options: { tree: SessionTree; filter?: TreeFilter; pageSize?: number; home?: string }): TreeNavState {
  return relayout({
    tree: options.tree,
    filter: options.filter ?? "default",
    search: "",
    folded: new Set(),
    rows: [],
    selected: 0,
    wantedId: options.tree.leafId,
    showLabelTimes: false,
    pageSize: options.pageSize ?? 10,
    home: options.home,
    mode: { kind: "browse" },
    effects: [],
  });
}

/** Rows for the current filter, search and folds; the selection follows `wantedId`. */
export function relayout(state: TreeNavState): TreeNavState {
  const rows = treeRows(state.tree, { filter: state.filter, search: state.search, folded: state.folded, home: state.home });
  const index = new Map(rows.map((row, i) => [row.entryId, i]));
  let selected = rows.length - 1; // pi's fallback: the last row
  for (let id = state.wantedId, seen = 0; id !== null && seen <= state.tree.byId.size; seen++) {
    const at = index.get(id);
    if (at !== undefined) {
      selected = at;
      break;
    }
    id = state.tree.byId.get(id)?.parentId ?? null;
  }
  return { ...state, rows, selected: Math.max(0, selected) };
}

function select(state: TreeNavState, index: number): TreeNavState {
  if (state.rows.length === 0) return state;
  return { ...state, selected: index, wantedId: state.rows[index].entryId };
}

function page(state: TreeNavState, delta: number): TreeNavState {
  return select(state, Math.max(0, Math.min(state.rows.length - 1, state.selected + delta)));
}

/** A filter or search change: folds are cleared, the selection kept where possible. */
function refilter(state: TreeNavState, changes: Partial<TreeNavState>): TreeNavState {
  return relayout({ ...state, ...changes, folded: new Set() });
}

function toggleFilter(state: TreeNavState, filter: TreeFilter): TreeNavState {
  return refilter(state, { filter: state.filter === filter ? "default" : filter });
}

function cycleFilter(state: TreeNavState, step: number): TreeNavState {
  const next = (TREE_FILTERS.indexOf(state.filter) + step + TREE_FILTERS.length) % TREE_FILTERS.length;
  return refilter(state, { filter: TREE_FILTERS[next] });
}

function childrenOf(rows: readonly TreeRow[], parentId: string): TreeRow[] {
  return rows.filter((row) => row.parentId === parentId);
}

/** Ctrl+Left: fold a foldable row, else go to the start of this segment (or the previous one). */
function foldOrUp(state: TreeNavState): TreeNavState {
  const row = state.rows[state.selected];
  if (!row) return state;
  if (row.foldable && !state.folded.has(row.entryId)) return relayout({ ...state, folded: new Set([...state.folded, row.entryId]) });
  const index = new Map(state.rows.map((r, i) => [r.entryId, i]));
  for (let current = row; ;) {
    const parent = current.parentId === null ? undefined : state.rows[index.get(current.parentId)!];
    if (!parent) return select(state, index.get(current.entryId)!);
    if (childrenOf(state.rows, parent.entryId).length > 1 && index.get(current.entryId)! < state.selected) return select(state, index.get(current.entryId)!);
    current = parent;
  }
}

/** Ctrl+Right: unfold a folded row, else go to the next branch point's first child (or the branch end). */
function unfoldOrDown(state: TreeNavState): TreeNavState {
  const row = state.rows[state.selected];
  if (!row) return state;
  if (state.folded.has(row.entryId)) {
    const folded = new Set(state.folded);
    folded.delete(row.entryId);
    return relayout({ ...state, folded });
  }
  const index = new Map(state.rows.map((r, i) => [r.entryId, i]));
  for (let current = row; ;) {
    const kids = childrenOf(state.rows, current.entryId);
    if (kids.length !== 1) return select(state, index.get((kids[0] ?? current).entryId)!);
    current = kids[0];
  }
}

function reduceMenu(state: TreeNavState, mode: Extract<TreeNavMode, { kind: "menu" }>, key: Key): TreeNavState {
  switch (chord(key)) {
    case "escape":
      return { ...state, mode: { kind: "browse" } };
    case "up":
      return { ...state, mode: { ...mode, index: (mode.index + MENU.length - 1) % MENU.length } };
    case "down":
      return { ...state, mode: { ...mode, index: (mode.index + 1) % MENU.length } };
    case "enter": {
      const { action } = MENU[mode.index];
      if (action === "label") return startLabel(state, mode.entryId);
      return { ...state, mode: { kind: "browse" }, exit: { kind: "done", value: { action, entryId: mode.entryId } } };
    }
  }
  return state;
}

function startLabel(state: TreeNavState, entryId: string): TreeNavState {
  return { ...state, mode: { kind: "label", entryId, input: state.tree.getLabel(entryId) ?? "" } };
}

function reduceLabel(state: TreeNavState, mode: Extract<TreeNavMode, { kind: "label" }>, key: Key): TreeNavState {
  switch (chord(key)) {
    case "escape":
      return { ...state, mode: { kind: "browse" } };
    case "enter": {
      // Trimmed; empty removes the label (pi's "Label (empty to remove)").
      const label = mode.input.trim() || undefined;
      if (label === state.tree.getLabel(mode.entryId)) return { ...state, mode: { kind: "browse" } };
      return { ...state, mode: { kind: "browse" }, effects: [...state.effects, { kind: "label", targetId: mode.entryId, label }] };
    }
  }
  const input = editLine(mode.input, key);
  return input === undefined ? state : { ...state, mode: { ...mode, input } };
}

/** The navigator after one key (keys as INTERACTIVE.md lists them). */
export function reduceTreeNav(state: TreeNavState, key: Key): TreeNavState {
  const { mode } = state;
  if (state.status) state = { ...state, status: undefined };
  if (mode.kind === "menu") return reduceMenu(state, mode, key);
  if (mode.kind === "label") return reduceLabel(state, mode, key);
  const last = state.rows.length - 1;
  const row = state.rows[state.selected];
  switch (chord(key)) {
    case "up":
      return select(state, state.selected === 0 ? last : state.selected - 1);
    case "down":
      return select(state, state.selected === last ? 0 : state.selected + 1);
    case "left":
    case "pageup":
    case "ctrl+b":
      return page(state, -state.pageSize);
    case "right":
    case "pagedown":
    case "ctrl+f":
      return page(state, state.pageSize);
    case "ctrl+left":
    case "alt+left":
      return foldOrUp(state);
    case "ctrl+right":
    case "alt+right":
      return unfoldOrDown(state);
    case "enter":
      return row ? { ...state, mode: { kind: "menu", entryId: row.entryId, index: 0 } } : state;
    case "escape":
      // Escape clears the search first, then closes.
      return state.search ? refilter(state, { search: "" }) : { ...state, exit: { kind: "cancel" } };
    case "ctrl+c":
      return { ...state, exit: { kind: "cancel" } };
    case "ctrl+d":
      return refilter(state, { filter: "default" });
    case "ctrl+t":
      return toggleFilter(state, "no-tools");
    case "ctrl+u":
      return toggleFilter(state, "user-only");
    case "ctrl+l":
      return toggleFilter(state, "labeled-only");
    case "ctrl+a":
      return toggleFilter(state, "all");
    case "ctrl+o":
      return cycleFilter(state, 1);
    case "shift+ctrl+o":
      return cycleFilter(state, -1);
    case "shift+l":
      return row ? startLabel(state, row.entryId) : state;
    case "shift+t":
      return { ...state, showLabelTimes: !state.showLabelTimes };
    case "backspace":
      return state.search ? refilter(state, { search: [...state.search].slice(0, -1).join("") }) : state;
  }
  const text = key.ctrl || key.meta ? "" : key.text;
  return text ? refilter(state, { search: state.search + text }) : state;
}

/** The file was written and read again: the new tree, same view. */
export function treeReloaded(state: TreeNavState, tree: SessionTree, text: string): TreeNavState {
  return { ...relayout({ ...state, tree }), status: { text, error: false } };
}

/** A write failed; the message shows until the next key. */
export function effectFailed(state: TreeNavState, text: string): TreeNavState {
  return { ...state, status: { text, error: true } };
}
