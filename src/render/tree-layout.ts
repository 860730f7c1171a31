/**
 * How pi's /tree indents visible rows: each row's depth, connector, gutters and fold rule from
 * its visible parent alone, in one pass over the rows in display order. Rows and parents are
 * plain arrays (no map over every row), so a 146k-row tree is laid out in a few milliseconds.
 * @module
 */
import { type Span, spanText } from "./entry-line.ts";
import type { TreeRow } from "./tree-rows.ts";

/** Indentation levels drawn at most; deeper rows show their innermost levels only. */
const MAX_DRAWN_LEVELS = 100;

/** Distinct gutter strings whose prefixes are shared between rows, at most (past them, each row makes its own). */
const SHARED_PREFIXES = 10_000;

/**
 * A row whose plain text is made from its spans when it is asked for (search, JSON): a big
 * tree's rows do not hold each text twice (a 146k-row tree's texts are tens of megabytes).
 */
export class SpanRow implements TreeRow {
  entryId: string;
  parentId: string | null = null;
  depth = 0;
  depthPrefix = "";
  connectorColumn = -1;
  foldable = false;
  childCount = 0;
  onActivePath: boolean;
  declare label?: string;
  declare labelTimestamp?: string;
  type: string;
  declare role?: string;
  spans: Span[];

  constructor(entryId: string, type: string, spans: Span[], onActivePath: boolean) {
    this.entryId = entryId;
    this.type = type;
    this.spans = spans;
    this.onActivePath = onActivePath;
  }

  get text(): string {
    return spanText(this.spans);
  }
}

/**
 * Gives each row its visible parent's id, indentation, connector, gutters and fold rule, as pi
 * does. `rows` are in display order (pre-order: a row's descendants follow it), `parents[i]`
 * the index of row i's visible parent (an earlier row) or -1 for a root.
 *
 * @example
 * ```ts
 * const rows = ["a", "b", "c"].map((id) => new SpanRow(id, "message", [], false));
 * layoutRows(rows, [-1, 0, 0]);
 * rows.map((row) => row.depthPrefix); // ["", "├─ ", "└─ "]
 * ```
 */
export function layoutRows(rows: readonly TreeRow[], parents: ArrayLike<number>): void {
  const count = rows.length;
  // Visible children of each row, and which of them comes last; the same for the roots.
  const kids = new Int32Array(count);
  const lastKid = new Int32Array(count).fill(-1);
  let rootCount = 0;
  let lastRoot = -1;
  for (let i = 0; i < count; i++) {
    const parent = parents[i];
    if (parent < 0) {
      rootCount++;
      lastRoot = i;
    } else {
      kids[parent]++;
      lastKid[parent] = i;
    }
  }
  // Rows at one depth under the same open branches share one prefix string, made once: a deep
  // tree's prefixes (up to 300 columns each) are neither kept nor made once per row.
  const made = new Map<string, Map<number, string>>();
  const cached = (gutters: string, key: number, make: () => string): string => {
    let byKey = made.get(gutters);
    if (!byKey) {
      byKey = new Map();
      if (made.size < SHARED_PREFIXES) made.set(gutters, byKey);
    }
    let text = byKey.get(key);
    if (text === undefined) byKey.set(key, text = make());
    return text;
  };
  // Several roots hang under a virtual root: indented one level, drawn without a connector.
  const multipleRoots = rootCount > 1;
  // The open ancestors of the row at hand (a row's parent is among them, display order being
  // pre-order), each with what its children inherit: indent, whether it branches, gutters
  // (the vertical lines of open branches, 3 columns per level: "│  " or blanks).
  const open: number[] = [];
  const openIndent: number[] = [];
  const openGutters: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = rows[i];
    const parent = parents[i];
    while (open.length > 0 && open[open.length - 1] !== parent) {
      open.pop();
      openIndent.pop();
      openGutters.pop();
    }
    const root = parent < 0;
    const indent = root ? (multipleRoots ? 1 : 0) : openIndent[openIndent.length - 1];
    const branched = root ? multipleRoots : kids[parent] > 1;
    const last = root ? i === lastRoot : lastKid[parent] === i;
    const gutters = root ? "" : openGutters[openGutters.length - 1];
    const connector = branched && !(root && multipleRoots);
    const display = multipleRoots ? Math.max(0, indent - 1) : indent;
    row.parentId = root ? null : rows[parent].entryId;
    row.depth = display;
    row.childCount = kids[i];
    row.foldable = kids[i] > 0 && (root || kids[parent] > 1);
    // A connector sits one level left of the row's depth; gutters never reach that level.
    // Deeper than any terminal shows, only the innermost levels are drawn, so memory stays linear.
    const from = Math.max(0, display - MAX_DRAWN_LEVELS) * 3;
    const cells = (connector ? display - 1 : display) * 3;
    const prefix = cached(gutters, display * 4 + (connector ? 2 : 0) + (last ? 1 : 0), () => {
      const gaps = gutters.slice(from, cells).padEnd(cells - from, " ");
      return connector ? gaps + (last ? "└─ " : "├─ ") : gaps;
    });
    // The connector is the prefix's last 3 columns.
    row.connectorColumn = connector ? prefix.length - 2 : -1;
    row.depthPrefix = prefix;
    if (kids[i] === 0) continue;
    // A branch point's children, and the first child after a branch, move one level right.
    const childIndent = kids[i] > 1 || (branched && indent > 0) ? indent + 1 : indent;
    let childGutters = gutters;
    if (connector) {
      const at = Math.max(0, display - 1) * 3;
      childGutters = cached(gutters, -1 - (display * 2 + (last ? 1 : 0)), () => gutters.slice(0, at).padEnd(at, " ") + (last ? "   " : "│  "));
    }
    open.push(i);
    openIndent.push(childIndent);
    openGutters.push(childGutters);
  }
}
