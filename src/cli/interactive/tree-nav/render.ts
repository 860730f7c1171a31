/**
 * Draws the tree navigator: title, key hints, the search line, a page of rows (cursor,
 * fold markers `⊟`/`⊞`, active path `•`, labels and their times) and the `(i/n) [filter]`
 * footer; or, in its place, the label input or the action menu. Pure.
 * @module
 */
import type { Colors } from "../../context.ts";
import { sidewaysScroll } from "../../../render/tree-indent.ts";
import { filterTag, renderTreeRow, type TreeRow } from "../../../render/tree-rows.ts";
import { fit, inputLine, PLAIN, windowStart } from "../frame.ts";
import type { Frame, ScreenSize } from "../prompt.ts";
import { MENU, type TreeNavState } from "./state.ts";

export interface TreeNavRenderOptions {
  /** For label times: today shows `HH:MM`, this year `M/D HH:MM`, else `YY/M/D HH:MM`. */
  now: Date;
  colors?: Colors;
}

const HINTS = [
  "↑/↓ move · ←/→ page · ctrl+←/→ fold/branch · enter actions · shift+l label · shift+t label time",
  "ctrl+d/t/u/l/a filters · ctrl+o/shift+ctrl+o cycle · type to search · esc close",
];

/** pi's label time, in local time. */
export function labelTime(timestamp: string, now: Date): string {
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return "";
  const two = (n: number) => String(n).padStart(2, "0");
  const time = `${two(date.getHours())}:${two(date.getMinutes())}`;
  if (date.getFullYear() !== now.getFullYear()) return `${String(date.getFullYear()).slice(-2)}/${date.getMonth() + 1}/${date.getDate()} ${time}`;
  if (date.getMonth() !== now.getMonth() || date.getDate() !== now.getDate()) return `${date.getMonth() + 1}/${date.getDate()} ${time}`;
  return time;
}

/** The row with its fold marker in the connector (or `⊞ ` before a folded root) and label time. */
function decorate(row: TreeRow, state: TreeNavState, now: Date): TreeRow {
  const folded = state.folded.has(row.entryId);
  let prefix = row.depthPrefix;
  if (row.connectorColumn >= 0 && (folded || row.foldable)) {
    prefix = prefix.slice(0, row.connectorColumn) + (folded ? "⊞" : "⊟") + prefix.slice(row.connectorColumn + 1);
  } else if (folded) {
    prefix += "⊞ ";
  }
  const time = state.showLabelTimes && row.label !== undefined && row.labelTimestamp ? labelTime(row.labelTimestamp, now) : "";
  const spans = time ? [{ text: `${time} `, tone: "muted" as const }, ...row.spans] : row.spans;
  return { ...row, depthPrefix: prefix, spans };
}

function footer(state: TreeNavState): string {
  const position = state.rows.length === 0 ? "0/0" : `${state.selected + 1}/${state.rows.length}`;
  return `  (${position})${filterTag(state.filter)}${state.showLabelTimes ? " [+label time]" : ""}`;
}

function body(state: TreeNavState, width: number, visible: number, options: TreeNavRenderOptions): string[] {
  const c = options.colors ?? PLAIN;
  const { mode } = state;
  if (mode.kind === "menu") {
    const row = state.rows.find((r) => r.entryId === mode.entryId);
    const lines = [c.bold(fit(`  Entry ${mode.entryId}: ${row?.text ?? ""}`, width)), ""];
    MENU.forEach((item, i) => {
      const line = fit(`${i === mode.index ? "› " : "  "}${item.text}`, width);
      lines.push(i === mode.index ? c.bold(c.cyan(line)) : line);
    });
    lines.push("", c.gray(fit("  ↑/↓ choose · enter run · esc back", width)));
    return lines;
  }
  if (state.rows.length === 0) return [c.gray(fit("  No entries found", width)), c.gray(fit(footer(state), width))];
  const start = windowStart(state.selected, state.rows.length, visible);
  const end = Math.min(start + visible, state.rows.length);
  const rows = state.rows.slice(start, end).map((row) => decorate(row, state, options.now));
  // A deep selection scrolls every row sideways, so that its text keeps half the width.
  const scroll = sidewaysScroll(rows[state.selected - start].depthPrefix.length, width - 2);
  const lines: string[] = [];
  for (let i = start; i < end; i++) {
    const selected = i === state.selected;
    const row = rows[i - start];
    const line = (selected ? c.cyan("› ") : "  ") + renderTreeRow({ ...row, depthPrefix: row.depthPrefix.slice(scroll) }, width - 2, c);
    lines.push(selected ? c.bold(line) : line);
  }
  lines.push(c.gray(fit(footer(state), width)));
  return lines;
}

/**
 * The navigator's frame; the cursor sits on the search line, or on the label input.
 *
 * @example
 * ```ts
 * // renderTreeNav(state, { columns: 80, rows: 24 }, { now: new Date() }).lines
 * ```
 */
export function renderTreeNav(state: TreeNavState, size: ScreenSize, options: TreeNavRenderOptions): Frame {
  const width = Math.max(1, size.columns);
  const c = options.colors ?? PLAIN;
  const status = state.status ? (state.status.error ? c.red : c.cyan)(fit(`  ${state.status.text}`, width)) : undefined;
  const head = [c.bold(fit("  Session Tree", width)), ...(status ? [status, ""] : HINTS.map((hint) => c.gray(fit(`  ${hint}`, width))))];
  if (state.mode.kind === "label") {
    const prompt = inputLine(`  Label (empty to remove): ${state.mode.input}`, width);
    return { lines: [...head, "", prompt, c.gray(fit("  enter save · esc cancel", width))], cursor: head.length + 1 };
  }
  const search = inputLine(`  Type to search: ${state.search}`, width);
  // Never taller than the screen (a page may have been set for a taller one): the search line,
  // rule, footer and a spare line for the cursor stay, whatever the page size.
  const visible = Math.max(1, Math.min(state.pageSize, size.rows - head.length - 4));
  return { lines: [...head, search, c.dim("─".repeat(width)), ...body(state, width, visible, options)], cursor: head.length };
}
