/**
 * The session tree as pi's /tree lays it out: one row per visible entry, in display order,
 * with its indentation and connectors, active-path mark and label. Pure `(tree, options) → rows`
 * and `renderTreeRow(row, width)`, shared by `tree` and the interactive navigator.
 * @module
 */
import type { SessionEntry, SessionTreeNode } from "../core/format/types.ts";
import type { SessionTree } from "../core/tree/session-tree.ts";
import { filterKeeps, type TreeFilter } from "../core/tree/tree-filter.ts";
import type { Colors } from "./colors.ts";
import { oneLine } from "./control-chars.ts";
import { callSpans, collectToolCalls, entrySpans, hasText, renderSpans, type Span, type ToolCallInfo } from "./entry-line.ts";
import { layoutRows, SpanRow } from "./tree-layout.ts";

export { TREE_FILTERS, type TreeFilter } from "../core/tree/tree-filter.ts";

/** What the terminal's /tree counts as settings entries. */
export const SETTINGS_TYPES: ReadonlySet<string> = new Set(["label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"]);

/** One visible entry, ready to draw. */
export interface TreeRow {
  entryId: string;
  /** The nearest visible ancestor (hidden entries' children attach to it), or null. */
  parentId: string | null;
  /** Indentation level (3 columns each). */
  depth: number;
  /** Gutters and connector, e.g. `"│  ├─ "`: `depth * 3` columns (the innermost 100 levels at most). */
  depthPrefix: string;
  /** Index in `depthPrefix` of the connector's middle character (`─`), or -1 without one. */
  connectorColumn: number;
  /** Visible children and a root or the first row after a branch point (pi's fold rule). */
  foldable: boolean;
  childCount: number;
  onActivePath: boolean;
  label?: string;
  labelTimestamp?: string;
  type: string;
  role?: string;
  /** The entry's content as coloured spans, and as plain text. */
  spans: Span[];
  text: string;
}

/**
 * What a row needs of an entry beyond its tree fields: computed from the entry as the rows are
 * laid out, or once as a big file is read (`rowFacts`), so that its entries need not be kept.
 */
export interface RowFacts {
  role: string | undefined;
  /** pi's rules that hold in every mode: `always` (usage), `unless-leaf` (an assistant message without text that ended normally), `never`. */
  hidden: "always" | "unless-leaf" | "never";
  /** The row's content; for a tool result, what it shows when its call is not found. */
  spans?: Span[];
  /** A tool result's call id: its row shows the call's line (found by id when the rows are laid out). */
  callId?: string;
  /** The tool calls of an assistant message: id, and the line a result of it shows. */
  calls?: [string, Span[]][];
}

/**
 * The row facts of one entry. `withSpans: false` leaves out the spans of an entry no row will show.
 *
 * @example
 * ```ts
 * rowFacts({ type: "usage" } as never).hidden; // "always"
 * ```
 */
export function rowFacts(entry: SessionEntry, home?: string, withSpans = true): RowFacts {
  const role = roleOf(entry);
  const facts: RowFacts = { role, hidden: hiddenRule(entry, role) };
  if (withSpans) facts.spans = entrySpans(entry, { home });
  if (role === "toolResult") {
    const id = (entry as { message: { toolCallId?: unknown } }).message.toolCallId;
    if (typeof id === "string") facts.callId = id;
  } else if (role === "assistant") {
    const calls = collectToolCalls([entry]);
    // The line a result of each call shows, made now: the call's arguments need not be kept.
    if (calls.size > 0) facts.calls = [...calls].map(([id, call]) => [id, callSpans(call, home)]);
  }
  return facts;
}

function hiddenRule(entry: SessionEntry, role: string | undefined): RowFacts["hidden"] {
  if (entry.type === "usage") return "always";
  if (role !== "assistant") return "never";
  const message = (entry as { message: { content?: unknown; stopReason?: unknown } }).message;
  const abnormal = Boolean(message.stopReason) && message.stopReason !== "stop" && message.stopReason !== "toolUse";
  return !hasText(message.content) && !abnormal ? "unless-leaf" : "never";
}

/** Which rows `treeRows` returns: filter, active leaf, folds and search, as the navigator sets them. */
export interface TreeRowsOptions {
  filter?: TreeFilter;
  /** The active leaf; defaults to the tree's (the last entry). */
  leafId?: string | null;
  /** Entries whose descendants are hidden. */
  folded?: ReadonlySet<string>;
  /** Whitespace-separated tokens; each must appear (case-insensitive) in label, role or type, or text. */
  search?: string;
  /** Home directory, to shorten paths as `~/…`. */
  home?: string;
  /** The facts of each entry, when the tree's entries are not whole (default: `rowFacts` of the entry). */
  facts?: (entry: SessionEntry) => RowFacts;
}

function roleOf(entry: SessionEntry): string | undefined {
  const message: unknown = (entry as { message?: unknown }).message;
  if (entry.type !== "message" || typeof message !== "object" || message === null) return undefined;
  const role = (message as { role?: unknown }).role;
  return typeof role === "string" ? role : undefined;
}

/**
 * pi's rules that hold in every mode: `usage` entries are hidden, and so is an assistant
 * message without text unless it is the leaf or ended abnormally (error, aborted, length).
 */
export function isAlwaysHidden(entry: SessionEntry, leafId: string | null): boolean {
  if (entry.type === "usage") return true;
  if (roleOf(entry) !== "assistant" || entry.id === leafId) return false;
  const message = (entry as { message: { content?: unknown; stopReason?: unknown } }).message;
  const abnormal = Boolean(message.stopReason) && message.stopReason !== "stop" && message.stopReason !== "toolUse";
  return !hasText(message.content) && !abnormal;
}

/**
 * Whether a filter mode keeps an entry (before the always-hidden rules).
 *
 * @example
 * ```ts
 * passesFilter({ type: "label" } as never, "default", false); // false: a settings entry
 * ```
 */
export function passesFilter(entry: SessionEntry, filter: TreeFilter, labelled: boolean): boolean {
  return filterKeeps(filter, { type: entry.type, role: roleOf(entry), labelled }, SETTINGS_TYPES);
}

/** The footer tag pi shows for a filter: `""`, `" [no-tools]"`, `" [user]"`, `" [labeled]"`, `" [all]"`. */
export function filterTag(filter: TreeFilter): string {
  return { default: "", "no-tools": " [no-tools]", "user-only": " [user]", "labeled-only": " [labeled]", all: " [all]" }[filter];
}

/** A node waiting to be visited, with what its ancestors decided for it. */
interface Pending {
  node: SessionTreeNode;
  /** The index of the nearest visible ancestor's row, or -1. */
  parent: number;
  /** Under a folded entry (not shown, nor its descendants). */
  underFold: boolean;
}

/**
 * The entries on the path from the forest's root to the leaf. A node's parent in the forest is
 * its entry's parent unless the node is a root (no parent, a self-parent, a missing one, or a
 * cycle cut there), so the walk goes by `parentId` and stops at a root: no map over every node.
 */
function activeEntries(tree: SessionTree, roots: readonly SessionTreeNode[], leafId: string | null): Set<SessionEntry> {
  const active = new Set<SessionEntry>();
  if (leafId === null) return active;
  const rootEntries = new Set(roots.map((node) => node.entry));
  for (let entry = tree.byId.get(leafId); entry && !active.has(entry); entry = entry.parentId === null ? undefined : tree.byId.get(entry.parentId)) {
    active.add(entry);
    if (rootEntries.has(entry)) break;
  }
  return active;
}

function searchText(row: TreeRow): string {
  return [row.label ?? "", row.role ?? row.type, row.text.slice(0, 200)].join(" ").toLowerCase();
}

/**
 * The visible rows of `tree` under `options`, in display order.
 *
 * @example
 * ```ts
 * // treeRows(new SessionTree(file.entries), { filter: "no-tools" }).map((r) => r.depthPrefix + r.text)
 * ```
 */
export function treeRows(tree: SessionTree, options: TreeRowsOptions = {}): TreeRow[] {
  const filter = options.filter ?? "default";
  const leafId = options.leafId === undefined ? tree.leafId : options.leafId;
  const roots = tree.getTree();
  const active = activeEntries(tree, roots, leafId);
  const given = options.facts;
  // Whole entries: the facts a filter needs now, the spans only for rows that are shown.
  const factsOf = given ?? ((entry: SessionEntry): RowFacts => {
    const role = roleOf(entry);
    return { role, hidden: hiddenRule(entry, role) };
  });
  // Calls by id, later ones winning, in the order of the tree's entries.
  const toolCalls = given ? new Map<string, ToolCallInfo>() : collectToolCalls(tree.byId.values());
  const callSpans = new Map<string, Span[]>();
  if (given) for (const entry of tree.byId.values()) for (const [id, spans] of given(entry).calls ?? []) callSpans.set(id, spans);
  const tokens = (options.search ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const folded = options.folded ?? new Set<string>();

  // Pre-order over the forest, the subtree holding the leaf first at every level. Each node is
  // visited once and let go: a 146k-entry tree keeps no list or map over all its nodes here.
  const visible: TreeRow[] = [];
  const parents: number[] = [];
  const pending: Pending[] = [];
  // Pushed in reverse display order (the active one first, then the others in order), so they pop in order.
  const pushChildren = (nodes: SessionTreeNode[], parent: number, underFold: boolean) => {
    for (let i = nodes.length - 1; i >= 0; i--) if (!active.has(nodes[i].entry)) pending.push({ node: nodes[i], parent, underFold });
    for (let i = nodes.length - 1; i >= 0; i--) if (active.has(nodes[i].entry)) pending.push({ node: nodes[i], parent, underFold });
  };
  pushChildren(roots, -1, false);
  while (pending.length > 0) {
    const { node, parent, underFold } = pending.pop()!;
    if (underFold) {
      pushChildren(node.children, parent, true);
      continue;
    }
    const row = visibleRow(node);
    if (row) {
      visible.push(row);
      parents.push(parent);
    }
    pushChildren(node.children, row ? visible.length - 1 : parent, folded.has(node.entry.id));
  }

  /** The node's row, when it is shown. */
  function visibleRow(node: SessionTreeNode): TreeRow | undefined {
    const entry = node.entry;
    const facts = factsOf(entry);
    if (facts.hidden === "always" || (facts.hidden === "unless-leaf" && entry.id !== leafId)) return undefined;
    if (!filterKeeps(filter, { type: entry.type, role: facts.role, labelled: node.label !== undefined }, SETTINGS_TYPES)) return undefined;
    const spans = !given ? entrySpans(entry, { toolCalls, home: options.home }) : (facts.callId !== undefined ? callSpans.get(facts.callId) : undefined) ?? facts.spans ?? [];
    const row = new SpanRow(entry.id, String(entry.type), spans, active.has(entry));
    if (node.label !== undefined) {
      row.label = node.label;
      row.labelTimestamp = node.labelTimestamp;
    }
    if (facts.role !== undefined) row.role = facts.role;
    if (tokens.length > 0 && !tokens.every((token) => searchText(row).includes(token))) return undefined;
    return row;
  }
  layoutRows(visible, parents);
  return visible;
}

/**
 * One row as a line: prefix, `• ` on the active path, `[label] `, content; cut to `width`
 * cells with `…`, coloured when `colors` is given.
 */
export function renderTreeRow(row: TreeRow, width: number, colors?: Colors): string {
  // Uncut and uncoloured (a pipe), the line is its texts end to end: no spans to make.
  if (width === Infinity && !colors?.isColorSupported) {
    let line = row.onActivePath ? row.depthPrefix + "• " : row.depthPrefix;
    if (row.label !== undefined) line += `[${oneLine(row.label)}] `;
    for (const span of row.spans) line += span.text;
    return line;
  }
  const spans: Span[] = [{ text: row.depthPrefix, tone: "dim" }];
  if (row.onActivePath) spans.push({ text: "• ", tone: "accent" });
  if (row.label !== undefined) spans.push({ text: `[${oneLine(row.label)}] `, tone: "warning" });
  spans.push(...row.spans);
  return renderSpans(spans, width, colors);
}
