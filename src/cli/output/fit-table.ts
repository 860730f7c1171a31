/**
 * A table that fits the terminal without wrapping: columns that matter least are left out
 * until the flexible column (a name) gets a readable width, and a line still too wide for a
 * very narrow terminal is cut at its edge.
 * @module
 */
import { type Column, formatTable } from "./table.ts";
import { textWidth, truncate } from "../../render/text-width.ts";

/** A column that may be left out when the terminal is narrow. */
export interface FitColumn extends Column {
  /** Left out when space runs short: the highest number goes first; absent means always kept. */
  drop?: number;
  /** For the flex column: the width it should keep before other columns go (default 24). */
  min?: number;
}

/**
 * The rows laid out in at most `maxWidth` cells per line, and which columns were kept.
 *
 * @example
 * ```ts
 * fitTable([["name", "1", "2"]], [{ flex: true }, { right: true, drop: 1 }, { right: true }], 12).lines;
 * // ["name  2"]
 * ```
 */
export function fitTable(rows: string[][], columns: FitColumn[], maxWidth = Infinity): { lines: string[]; kept: number[] } {
  // A reduce, not Math.max(...rows): a spread of 100k+ rows overflows the stack.
  const natural = columns.map((_, i) => rows.reduce((widest, row) => Math.max(widest, textWidth(row[i] ?? "")), 0));
  let kept = columns.map((_, i) => i);
  const needed = (indices: number[]) =>
    indices.reduce((sum, i) => sum + (columns[i].flex ? Math.min(natural[i], columns[i].min ?? 24) : natural[i]), 0) + 2 * (indices.length - 1);
  while (Number.isFinite(maxWidth) && needed(kept) > maxWidth) {
    const droppable = kept.filter((i) => columns[i].drop !== undefined);
    if (droppable.length === 0) break;
    const first = droppable.reduce((a, b) => (columns[b].drop! > columns[a].drop! ? b : a));
    kept = kept.filter((i) => i !== first);
  }
  const lines = formatTable(rows.map((row) => kept.map((i) => row[i] ?? "")), kept.map((i) => columns[i]), maxWidth);
  return { lines: lines.map((line) => (textWidth(line) > maxWidth ? truncate(line, maxWidth) : line)), kept };
}
