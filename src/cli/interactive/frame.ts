/**
 * Drawing helpers shared by the prompts' render functions: one line per row, cut to the
 * terminal width with `…`, colours optional (none in tests and with NO_COLOR).
 * @module
 */
import { type Colors, createColors } from "../../render/colors.ts";
import { oneLine } from "../../render/control-chars.ts";
import { textWidth, truncate } from "../../render/text-width.ts";
import { renderSpans, type Span } from "../../render/entry-line.ts";

/** Colours that do nothing: what renders use unless given real ones. */
export const PLAIN: Colors = createColors(false);

/** `text` on one line (control characters as spaces), cut to `width` cells with `…`. */
export function fit(text: string, width: number): string {
  return truncate(oneLine(text), Math.max(0, width));
}

/**
 * `left` and `right` on one line `width` wide, at least one space apart; `left` is cut first
 * (down to `minLeft` cells), then the whole line.
 *
 * @example
 * ```ts
 * spread("hello", "3 2d", 12); // "hello   3 2d"
 * ```
 */
export function spread(left: string, right: string, width: number, minLeft = 0): string {
  const room = Math.max(minLeft, width - textWidth(right) - 1);
  const cut = fit(left, room);
  const gap = Math.max(1, width - textWidth(cut) - textWidth(right));
  return fit(cut + " ".repeat(gap) + right, width);
}

/**
 * A line being typed into: its end (where the cursor sits) always visible, and never a full
 * line wide, so the cursor stays on it.
 */
export function inputLine(text: string, width: number): string {
  const line = oneLine(text);
  const room = Math.max(1, width - 1);
  if (textWidth(line) <= room) return line;
  let tail = "";
  for (const char of [...line].reverse()) {
    if (textWidth("…" + char + tail) > room) break;
    tail = char + tail;
  }
  return "…" + tail;
}

/** The first row shown so that `selected` sits mid-window (pi's scrolling). */
export function windowStart(selected: number, count: number, visible: number): number {
  return Math.max(0, Math.min(selected - Math.floor(visible / 2), count - visible));
}

/** Spans on one line (control characters as spaces), cut to `width` cells with `…`, coloured. */
export function paint(spans: readonly Span[], width: number, colors: Colors = PLAIN): string {
  return renderSpans(spans.map((s) => ({ ...s, text: oneLine(s.text) })), Math.max(0, width), colors);
}
