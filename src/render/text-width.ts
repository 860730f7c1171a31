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

/** 1 for a UTF-16 unit that is one cell and a grapheme of its own (as `NARROW`), 2 for a common wide one (kana, CJK ideographs, Hangul syllables), 0 for any other. */
function simpleWidth(c: number): number {
  if (c >= 0x20 && c <= 0x7e) return 1;
  if (c >= 0xa0 && c <= 0x2ff) return c === 0xa9 || c === 0xad || c === 0xae ? 0 : 1;
  if (c === 0x2502 || c === 0x251c || c === 0x2514 || c === 0x2500 || c === 0x2022 || c === 0x2026) return 1;
  if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3)) return 2;
  return 0;
}

/**
 * Cells the text takes in a terminal. Text mixing in other characters (emoji, combining marks)
 * is measured run by run: simple characters by `simpleWidth`, each run of others, with the simple
 * characters on either side (a base a combining mark or keycap attaches to, a base after a
 * prepended mark), by string-width.
 */
export function textWidth(text: string): number {
  if (NARROW.test(text)) return text.length;
  const known = runWidths.get(text);
  if (known !== undefined) return known;
  let width = 0;
  let run = -1;
  let before = 1;
  let here = simpleWidth(text.charCodeAt(0));
  for (let i = 0; i < text.length; i++) {
    const next = i + 1 < text.length ? simpleWidth(text.charCodeAt(i + 1)) : 1;
    if (here !== 0 && before !== 0 && next !== 0) {
      if (run >= 0) width += runWidth(text.slice(run, i));
      run = -1;
      width += here;
    } else if (run < 0) run = i;
    before = here;
    here = next;
  }
  return run >= 0 ? width + runWidth(text.slice(run)) : width;
}

/** Widths of runs measured lately: the same few emoji and marks recur across the rows of a list. */
const runWidths = new Map<string, number>();
const RUNS_KEPT = 4096;

/**
 * The widths string-width gave the first runs this process measured (at most `count`, in the
 * order measured), to be taken as known at a later start of the same build (`knowWidths`): the
 * picker keeps those of its first frame with its first page, so that the next start draws that
 * frame without string-width. Its first answer costs 10 to 25 ms (on the bench VM, loaded): its
 * grapheme segmenter, then the first test of its emoji pattern (compiled then), and the
 * picker's header always has a character it is asked about (◉).
 */
export function measuredWidths(count = 256): [string, number][] {
  const widths: [string, number][] = [];
  for (const entry of runWidths) {
    if (widths.length >= count) break;
    widths.push(entry);
  }
  return widths;
}

/** Takes `widths` (what `measuredWidths` gave in a run of this same build) as string-width's answers; anything else in them is ignored. */
export function knowWidths(widths: unknown): void {
  if (!Array.isArray(widths)) return;
  for (const entry of widths) {
    if (runWidths.size >= RUNS_KEPT) return;
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || !Number.isInteger(entry[1]) || entry[1] < 0) continue;
    if (!runWidths.has(entry[0])) runWidths.set(entry[0], entry[1]);
  }
}

/** string-width's answer for a run, from `runWidths` when known. */
function runWidth(run: string): number {
  let width = runWidths.get(run);
  if (width === undefined) {
    if (runWidths.size >= RUNS_KEPT) runWidths.clear();
    runWidths.set(run, width = stringWidth(run));
  }
  return width;
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

/** Pads with spaces to `width` cells (left-aligned, or right-aligned with `right`); `cells`: the text's width when known. */
export function pad(text: string, width: number, right = false, cells = textWidth(text)): string {
  const n = Math.max(0, width - cells);
  if (n === 0) return text;
  const fill = n < SPACES.length ? SPACES[n] : " ".repeat(n);
  return right ? fill + text : text + fill;
}

/** Runs of spaces by length, for `pad`: a table pads each cell of each of thousands of rows. */
const SPACES = Array.from({ length: 129 }, (_, n) => " ".repeat(n));
