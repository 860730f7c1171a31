/**
 * Aligned columns sized to the terminal. Columns marked `flex` or `shrink` give way when the
 * table is too wide: they share the room the fixed columns leave, none wider than it needs, so
 * one long cell (a deep cwd) cannot squeeze the others (the session's name) to nothing.
 * @module
 */
import { pad, textWidth, truncate } from "../../render/text-width.ts";

export interface Column {
  /** Right-align (numbers). */
  right?: boolean;
  /** The column that gets any room left over once every column has what it needs; it gives way too. */
  flex?: boolean;
  /** Gives way when the table is too wide, cut with `…`, sharing the room with the flex column. */
  shrink?: boolean;
  /** Cut at the start (`…/deep/project`) instead of the end: for paths, whose end says most. */
  cutStart?: boolean;
  /** Wraps the cell after padding, e.g. to colour it. */
  style?: (text: string) => string;
}

/** Narrowest a column that gives way is cut to, room permitting. */
const MIN_SHARE = 8;

/**
 * Shares `room` cells among columns wanting `wants` cells: each gets an equal share, and what a
 * column needs less than its share goes to the others (max-min fairness).
 *
 * @example
 * ```ts
 * shareWidth([80, 10, 100], 110); // [50, 10, 50]
 * ```
 */
export function shareWidth(wants: readonly number[], room: number): number[] {
  const given = wants.map(() => 0);
  let open = wants.map((_, i) => i);
  let left = Math.max(0, room);
  while (open.length > 0) {
    const share = Math.floor(left / open.length);
    const satisfied = open.filter((i) => wants[i] <= share);
    if (satisfied.length === 0) {
      // Nobody fits in an equal share: split what is left, the remainder to the first columns.
      open.forEach((i, k) => (given[i] = share + (k < left - share * open.length ? 1 : 0)));
      break;
    }
    for (const i of satisfied) {
      given[i] = wants[i];
      left -= wants[i];
    }
    open = open.filter((i) => wants[i] > share);
  }
  return given;
}

function cutStart(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return "";
  const chars = [...text];
  let tail = "";
  for (let i = chars.length - 1; i >= 0 && textWidth("…" + chars[i] + tail) <= width; i--) tail = chars[i] + tail;
  return "…" + tail;
}

/**
 * Lays out `rows` in columns separated by two spaces, never wider than `maxWidth`.
 *
 * @example
 * ```ts
 * formatTable([["1h", "hello there"]], [{}, { flex: true }], 10); // ["1h  hell…"]
 * ```
 */
export function formatTable(rows: string[][], columns: Column[], maxWidth = Infinity): string[] {
  return [...tableLines(rows, columns, maxWidth)];
}

/**
 * `formatTable`'s lines one at a time, each made when it is taken: a long listing is printed
 * without all its lines held at once.
 */
export function* tableLines(rows: string[][], columns: Column[], maxWidth = Infinity): Generator<string> {
  // Each cell is measured once: measuring is what a long listing spends its time on. In a pipe
  // (no width), a last column aligned left is printed as it is: its cells are never measured.
  const last = columns.length - 1;
  const unmeasured = !Number.isFinite(maxWidth) && last >= 0 && !columns[last].right ? last : -1;
  const cellWidths = rows.map((row) => columns.map((_, i) => (i === unmeasured ? 0 : textWidth(row[i] ?? ""))));
  // A reduce, not Math.max(...rows): a spread of 100k+ rows overflows the stack.
  const widths = columns.map((_, i) => cellWidths.reduce((widest, row) => Math.max(widest, row[i]), 0));
  const giving = columns.map((c, i) => (c.flex || c.shrink ? i : -1)).filter((i) => i >= 0);
  const total = widths.reduce((sum, w) => sum + w, 0) + 2 * (columns.length - 1);
  if (giving.length > 0 && Number.isFinite(maxWidth) && total > maxWidth) {
    const fixed = total - giving.reduce((sum, i) => sum + widths[i], 0);
    const room = Math.max(maxWidth - fixed, Math.min(MIN_SHARE * giving.length, giving.reduce((sum, i) => sum + widths[i], 0)));
    const shares = shareWidth(giving.map((i) => widths[i]), room);
    giving.forEach((column, k) => (widths[column] = shares[k]));
  }
  for (const [r, row] of rows.entries()) {
    const line = columns.map((column, i) => {
      const last = i === columns.length - 1;
      const text = row[i] ?? "";
      const fits = cellWidths[r][i] <= widths[i];
      const cell = fits ? text : column.cutStart ? cutStart(text, widths[i]) : truncate(text, widths[i]);
      const cellWidth = fits ? cellWidths[r][i] : textWidth(cell);
      const padded = last && !column.right ? cell : pad(cell, widths[i], column.right, cellWidth);
      return { text: padded, width: last && !column.right ? cellWidth : Math.max(widths[i], cellWidth), style: column.style };
    });
    // Still too wide (fixed columns alone overflow): cut the line rather than let it wrap.
    let used = 0;
    const parts: string[] = [];
    for (const [i, { text, width, style }] of line.entries()) {
      const sep = i === 0 ? "" : "  ";
      const room = maxWidth - used - sep.length;
      if (room <= 0) break;
      const cell = width > room ? truncate(text, room) : text;
      parts.push(sep + (style ? style(cell) : cell));
      used += sep.length + (width > room ? textWidth(cell) : width);
    }
    yield parts.join("").trimEnd();
  }
}
