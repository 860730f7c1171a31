/**
 * Display width and truncation for terminal columns: East Asian wide characters and
 * emoji count as two cells; text that does not fit ends in `…`.
 * @module
 */
import stringWidth from "string-width";

/**
 * Text whose every character is one cell wide and a grapheme of its own, as string-width counts
 * it: printable ASCII, Latin-1 to the IPA block (but the soft hyphen, which takes none, and © and
 * ®, which are emoji), and the tree and ellipsis marks drawn by this tool. string-width segments
 * graphemes and tests regular expressions for each one: far too slow to call per character, or
 * for every row of a list.
 */
const NARROW = /^[\x20-\x7e\u00a0-\u00a8\u00aa-\u00ac\u00af-\u02ff│├└─•…]*$/;

/** Cells the text takes in a terminal. */
export function textWidth(text: string): number {
  return NARROW.test(text) ? text.length : stringWidth(text);
}

/**
 * Cuts `text` to at most `width` cells, ending in `…` when cut.
 *
 * @example
 * ```ts
 * truncate("hello world", 8); // "hello w…"
 * ```
 */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const char of text) {
    const w = textWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return out + "…";
}

/** Pads with spaces to `width` cells (left-aligned, or right-aligned with `right`). */
export function pad(text: string, width: number, right = false): string {
  const fill = " ".repeat(Math.max(0, width - textWidth(text)));
  return right ? fill + text : text + fill;
}
