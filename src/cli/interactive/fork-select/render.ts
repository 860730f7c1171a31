/**
 * Draws the fork message selector: a title, then for each visible message its text on one
 * line and `Message i of n` under it, and the `(i/n)` counter. Pure.
 * @module
 */
import type { Colors } from "../../context.ts";
import { fit, PLAIN, windowStart } from "../frame.ts";
import type { Frame, ScreenSize } from "../prompt.ts";
import type { ForkSelectState } from "./state.ts";

/**
 * The selector's frame; the cursor rests on the title line.
 *
 * @example
 * ```ts
 * // renderForkSelect(state, { columns: 80, rows: 24 }).lines
 * ```
 */
export function renderForkSelect(state: ForkSelectState, size: ScreenSize, colors: Colors = PLAIN): Frame {
  const width = Math.max(1, size.columns);
  const c = colors;
  const lines = [
    c.bold(fit("Fork from Message", width - 1)),
    c.gray(fit("The new session ends just before the chosen message; its text is printed to send again", width)),
    c.gray(fit("↑/↓ move · pgup/pgdn page · enter fork · esc cancel", width)),
    "",
  ];
  const count = state.messages.length;
  const start = windowStart(state.selected, count, state.pageSize);
  const end = Math.min(start + state.pageSize, count);
  for (let i = start; i < end; i++) {
    const selected = i === state.selected;
    const text = fit(state.messages[i].text.trim(), width - 2);
    lines.push(selected ? c.cyan("› ") + c.bold(text) : `  ${text}`);
    lines.push(c.gray(fit(`  Message ${i + 1} of ${count}`, width)));
  }
  if (count > 0) lines.push(c.gray(fit(`  (${state.selected + 1}/${count})`, width)));
  return { lines, cursor: 0 };
}
