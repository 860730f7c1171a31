/**
 * Keeps deep trees readable: a row's indentation (3 cells a level) may take at most half the
 * width, so its text always has the other half. The printed tree caps each row's indentation,
 * showing its innermost levels after `…`; the navigator scrolls sideways to the selected row.
 * @module
 */

/** Cells a level of indentation takes. */
const LEVEL = 3;

/** The most indentation a row may have at `width`: half of it, in whole levels. */
export function indentLimit(width: number): number {
  return Math.floor(Math.max(0, width) / 2 / LEVEL) * LEVEL;
}

/**
 * `prefix` (gutters and connector) cut to `indentLimit(width)` cells: outer levels give way to
 * one `…  ` level, the innermost (with the row's own connector) stay.
 *
 * @example
 * ```ts
 * capIndent("│  │  │  │  ├─ ", 24); // "…  │  │  ├─ "
 * ```
 */
export function capIndent(prefix: string, width: number): string {
  const limit = indentLimit(width);
  if (prefix.length <= limit) return prefix;
  const kept = Math.max(0, limit - LEVEL);
  return "…" + " ".repeat(LEVEL - 1) + prefix.slice(prefix.length - kept);
}

/**
 * How many cells of indentation the navigator hides on every row so that the selected row,
 * indented `selectedIndent` cells in a view `width` wide, keeps at least half the view for its
 * text; 0 when it has that already. Whole levels, so gutters stay lined up.
 *
 * @example
 * ```ts
 * sidewaysScroll(120, 138); // 108: the row's text starts 12 cells in
 * ```
 */
export function sidewaysScroll(selectedIndent: number, width: number): number {
  const limit = indentLimit(width);
  if (selectedIndent <= limit) return 0;
  // Keep a few levels of context left of the row, as pi does.
  const context = Math.min(4 * LEVEL, Math.floor(width / 4 / LEVEL) * LEVEL);
  return Math.max(0, selectedIndent - context);
}
