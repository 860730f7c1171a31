/**
 * Aligned columns sized to the terminal. One column (the widest text, e.g. a message)
 * flexes: it gets what the others leave and is cut with `…`.
 * @module
 */
import { pad, textWidth, truncate } from "../../render/text-width.ts";

export interface Column {
  /** Right-align (numbers). */
  right?: boolean;
  /** This column takes the remaining width and is truncated to fit. */
  flex?: boolean;
  /** Wraps the cell after padding, e.g. to colour it. */
  style?: (text: string) => string;
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
  const widths = columns.map((_, i) => Math.max(0, ...rows.map((row) => textWidth(row[i] ?? ""))));
  const flex = columns.findIndex((c) => c.flex);
  if (flex >= 0 && Number.isFinite(maxWidth)) {
    const others = widths.reduce((sum, w, i) => (i === flex ? sum : sum + w), 0) + 2 * (columns.length - 1);
    widths[flex] = Math.max(8, Math.min(widths[flex], maxWidth - others));
  }
  return rows.map((row) =>
    columns.map((column, i) => {
      const last = i === columns.length - 1;
      const cell = truncate(row[i] ?? "", widths[i]);
      const text = last && !column.right ? cell : pad(cell, widths[i], column.right);
      return column.style ? column.style(text) : text;
    }).join("  ").trimEnd()
  );
}
