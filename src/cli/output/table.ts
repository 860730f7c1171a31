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
 * The column (index) whose cells are not measured: in a pipe (no width), a last column aligned
 * left is printed as it is. -1 when every column is measured.
 */
export function unmeasuredColumn(columns: readonly Column[], maxWidth: number): number {
  const last = columns.length - 1;
  return !Number.isFinite(maxWidth) && last >= 0 && !columns[last].right ? last : -1;
}

/**
 * The width each column is laid out at, from the widest cell of each (`widest`, 0 for the
 * unmeasured column): the columns that give way share what the others leave of `maxWidth`.
 */
export function columnWidths(widest: readonly number[], columns: readonly Column[], maxWidth: number): number[] {
  const widths = [...widest];
  const giving = columns.map((c, i) => (c.flex || c.shrink ? i : -1)).filter((i) => i >= 0);
  const total = widths.reduce((sum, w) => sum + w, 0) + 2 * (columns.length - 1);
  if (giving.length > 0 && Number.isFinite(maxWidth) && total > maxWidth) {
    const fixed = total - giving.reduce((sum, i) => sum + widths[i], 0);
    const room = Math.max(maxWidth - fixed, Math.min(MIN_SHARE * giving.length, giving.reduce((sum, i) => sum + widths[i], 0)));
    const shares = shareWidth(giving.map((i) => widths[i]), room);
    giving.forEach((column, k) => (widths[column] = shares[k]));
  }
  return widths;
}

/**
 * How wide a column that gives way needs to be measured: any width from this one on lays the
 * table out alike (it is past all the room there is to share), so a caller finding the widest
 * cell may stop there.
 */
export function widthCap(columns: readonly Column[], maxWidth: number): number {
  return Math.max(maxWidth + 1, MIN_SHARE * columns.filter((c) => c.flex || c.shrink).length);
}

/** The cell widths of `row` as `tableLine` wants them (0 for the unmeasured column). */
export function cellWidths(row: readonly string[], columns: readonly Column[], unmeasured: number): number[] {
  return columns.map((_, i) => (i === unmeasured ? 0 : textWidth(row[i] ?? "")));
}

/** One line of a table laid out at `widths` (`columnWidths`), from a row and its `cellWidths`. */
export function tableLine(row: readonly string[], cells: readonly number[], columns: readonly Column[], widths: readonly number[], maxWidth: number): string {
  // One pass, no object per cell: a long listing makes a line per session.
  let out = "";
  let used = 0;
  const last = columns.length - 1;
  for (let i = 0; i <= last; i++) {
    const column = columns[i];
    const unpadded = i === last && !column.right;
    const text = row[i] ?? "";
    const fits = cells[i] <= widths[i];
    const cell = fits ? text : column.cutStart ? cutStart(text, widths[i]) : truncate(text, widths[i]);
    const cellWidth = fits ? cells[i] : textWidth(cell);
    const padded = unpadded ? cell : pad(cell, widths[i], column.right, cellWidth);
    const width = unpadded ? cellWidth : Math.max(widths[i], cellWidth);
    // Still too wide (fixed columns alone overflow): cut the line rather than let it wrap.
    const sep = i === 0 ? "" : "  ";
    const room = maxWidth - used - sep.length;
    if (room <= 0) break;
    const shown = width > room ? truncate(padded, room) : padded;
    out += sep + (column.style ? column.style(shown) : shown);
    used += sep.length + (width > room ? textWidth(shown) : width);
  }
  return out.trimEnd();
}

/**
 * `formatTable`'s lines one at a time, each made when it is taken: a long listing is printed
 * without all its lines held at once.
 */
export function* tableLines(rows: string[][], columns: Column[], maxWidth = Infinity): Generator<string> {
  // Each cell is measured once: measuring is what a long listing spends its time on.
  const unmeasured = unmeasuredColumn(columns, maxWidth);
  const cells = rows.map((row) => cellWidths(row, columns, unmeasured));
  // A reduce, not Math.max(...rows): a spread of 100k+ rows overflows the stack.
  const widths = columnWidths(columns.map((_, i) => cells.reduce((widest, row) => Math.max(widest, row[i]), 0)), columns, maxWidth);
  for (const [r, row] of rows.entries()) yield tableLine(row, cells[r], columns, widths, maxWidth);
}
