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
import { collectToolCalls, entrySpans, hasText, renderSpans, type Span, spanText, type ToolCallInfo } from "./entry-line.ts";

export { TREE_FILTERS, type TreeFilter } from "../core/tree/tree-filter.ts";

/** Indentation levels drawn at most; deeper rows show their innermost levels only. */
const MAX_DRAWN_LEVELS = 100;

/** What the terminal's /tree counts as settings entries. */
const SETTINGS_TYPES = new Set(["label", "context_edit", "custom", "model_change", "thinking_level_change", "session_info"]);

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
    if (calls.size > 0) facts.calls = [...calls].map(([id, call]) => [id, entrySpans(resultOf(id), { toolCalls: new Map([[id, call]]), home })]);
  }
  return facts;
}

/** A tool result entry that names only its call. */
function resultOf(toolCallId: string): SessionEntry {
  return { type: "message", message: { role: "toolResult", toolCallId } } as unknown as SessionEntry;
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

interface Flat {
  node: SessionTreeNode;
  treeParent: SessionTreeNode | null;
  row?: TreeRow;
}

/** Pre-order over the forest, the subtree holding the leaf first at every level. */
function flatten(roots: SessionTreeNode[], leafId: string | null): { flat: Flat[]; activePath: Set<string>; parentOf: Map<SessionTreeNode, SessionTreeNode> } {
  // getTree() returns a forest (cycles cut), so every node has one parent and walks end.
  const parentOf = new Map<SessionTreeNode, SessionTreeNode>();
  let leaf: SessionTreeNode | undefined;
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.entry.id === leafId) leaf = node;
    for (const child of node.children) {
      parentOf.set(child, node);
      stack.push(child);
    }
  }
  const active = new Set<SessionTreeNode>();
  for (let node = leaf; node && !active.has(node); node = parentOf.get(node)) active.add(node);
  const flat: Flat[] = [];
  // Pushed in reverse display order (the active one first, then the others in order), so they pop in order.
  // No arrays per node: a 146k-entry tree would make as many.
  const ordered: Flat[] = [];
  const pushChildren = (nodes: SessionTreeNode[], treeParent: SessionTreeNode | null) => {
    for (let i = nodes.length - 1; i >= 0; i--) if (!active.has(nodes[i])) ordered.push({ node: nodes[i], treeParent });
    for (let i = nodes.length - 1; i >= 0; i--) if (active.has(nodes[i])) ordered.push({ node: nodes[i], treeParent });
  };
  pushChildren(roots, null);
  while (ordered.length > 0) {
    const item = ordered.pop()!;
    flat.push(item);
    pushChildren(item.node.children, item.node);
  }
  const activePath = new Set<string>();
  for (const node of active) activePath.add(node.entry.id);
  return { flat, activePath, parentOf };
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
  const { flat, activePath, parentOf } = flatten(tree.getTree(), leafId);
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

  const hiddenBelow = new Set<SessionTreeNode>(); // nodes under a fold
  const visible: Flat[] = [];
  for (const item of flat) {
    const { node, treeParent } = item;
    if (treeParent && (hiddenBelow.has(treeParent) || folded.has(treeParent.entry.id))) {
      hiddenBelow.add(node);
      continue;
    }
    const entry = node.entry;
    const facts = factsOf(entry);
    if (facts.hidden === "always" || (facts.hidden === "unless-leaf" && entry.id !== leafId)) continue;
    if (!filterKeeps(filter, { type: entry.type, role: facts.role, labelled: node.label !== undefined }, SETTINGS_TYPES)) continue;
    const spans = !given ? entrySpans(entry, { toolCalls, home: options.home }) : (facts.callId !== undefined ? callSpans.get(facts.callId) : undefined) ?? facts.spans ?? [];
    item.row = {
      entryId: entry.id,
      parentId: null,
      depth: 0,
      depthPrefix: "",
      connectorColumn: -1,
      foldable: false,
      childCount: 0,
      onActivePath: activePath.has(entry.id),
      ...(node.label !== undefined ? { label: node.label, labelTimestamp: node.labelTimestamp } : {}),
      type: String(entry.type),
      ...(facts.role !== undefined ? { role: facts.role } : {}),
      spans,
      text: spanText(spans),
    };
    if (tokens.length > 0 && !tokens.every((token) => searchText(item.row!).includes(token))) continue;
    visible.push(item);
  }
  layout(parentOf, visible);
  return visible.map((item) => item.row!);
}

/**
 * Gives each visible row its visible parent, indentation, connector and gutters, as pi does.
 * `treeParent`: each node's parent in the drawn tree (the forest's, cycles cut).
 */
function layout(treeParent: ReadonlyMap<SessionTreeNode, SessionTreeNode>, visible: Flat[]): void {
  const rowOf = new Map<SessionTreeNode, TreeRow>();
  for (const item of visible) rowOf.set(item.node, item.row!);
  const parentRow = new Map<TreeRow, TreeRow | null>();
  const children = new Map<TreeRow | null, TreeRow[]>([[null, []]]);
  for (const item of visible) {
    // The nearest visible ancestor along the drawn tree; hidden ancestors are skipped.
    let up = item.treeParent;
    while (up && !rowOf.has(up)) up = treeParent.get(up) ?? null;
    const parent = up ? rowOf.get(up)! : null;
    item.row!.parentId = parent ? parent.entryId : null;
    parentRow.set(item.row!, parent);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent)!.push(item.row!);
  }
  const roots = children.get(null)!;
  const multipleRoots = roots.length > 1;
  // `gutters` holds the vertical lines of open branches, 3 columns per level ("│  " or blanks).
  type Item = { row: TreeRow; indent: number; branched: boolean; last: boolean; gutters: string; virtualChild: boolean };
  // Several roots hang under a virtual root: indented one level, drawn without a connector.
  const stack: Item[] = roots.map((row, i): Item => ({
    row,
    indent: multipleRoots ? 1 : 0,
    branched: multipleRoots,
    last: i === roots.length - 1,
    gutters: "",
    virtualChild: multipleRoots,
  })).reverse();
  while (stack.length > 0) {
    const { row, indent, branched, last, gutters, virtualChild } = stack.pop()!;
    const kids = children.get(row) ?? [];
    const connector = branched && !virtualChild;
    const display = multipleRoots ? Math.max(0, indent - 1) : indent;
    row.depth = display;
    row.childCount = kids.length;
    const parent = parentRow.get(row) ?? null;
    row.foldable = kids.length > 0 && (parent === null || children.get(parent)!.length > 1);
    // A connector sits one level left of the row's depth; gutters never reach that level.
    // Deeper than any terminal shows, only the innermost levels are drawn, so memory stays linear.
    const from = Math.max(0, display - MAX_DRAWN_LEVELS) * 3;
    const cells = (connector ? display - 1 : display) * 3;
    let prefix = gutters.slice(from, cells).padEnd(cells - from, " ");
    row.connectorColumn = connector ? prefix.length + 1 : -1;
    if (connector) prefix += last ? "└─ " : "├─ ";
    row.depthPrefix = prefix;
    // A branch point's children, and the first child after a branch, move one level right.
    const branching = kids.length > 1;
    const childIndent = branching || (branched && indent > 0) ? indent + 1 : indent;
    let childGutters = gutters;
    if (connector) {
      const at = Math.max(0, display - 1) * 3;
      childGutters = gutters.slice(0, at).padEnd(at, " ") + (last ? "   " : "│  ");
    }
    for (let i = kids.length - 1; i >= 0; i--) {
      stack.push({ row: kids[i], indent: childIndent, branched: branching, last: i === kids.length - 1, gutters: childGutters, virtualChild: false });
    }
  }
}

/**
 * One row as a line: prefix, `• ` on the active path, `[label] `, content; cut to `width`
 * cells with `…`, coloured when `colors` is given.
 */
export function renderTreeRow(row: TreeRow, width: number, colors?: Colors): string {
  const spans: Span[] = [{ text: row.depthPrefix, tone: "dim" }];
  if (row.onActivePath) spans.push({ text: "• ", tone: "accent" });
  if (row.label !== undefined) spans.push({ text: `[${oneLine(row.label)}] `, tone: "warning" });
  spans.push(...row.spans);
  return renderSpans(spans, width, colors);
}
