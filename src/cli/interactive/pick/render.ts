/**
 * Draws the session picker: a header with scope, name filter and sort, key hints (or a
 * status, delete or rename line), the query line, then up to a page of rows and `(i/n)`.
 * Pure: `(state, size, options) → frame`.
 * @module
 */
import { tildePath } from "../../../core/storage/paths.ts";
import type { Colors } from "../../context.ts";
import { relativeAge } from "../../output/age.ts";
import { oneLine } from "../../../render/control-chars.ts";
import { textWidth } from "../../../render/text-width.ts";
import type { Span } from "../../../render/entry-line.ts";
import { fit, inputLine, paint, PLAIN, spread, windowStart } from "../frame.ts";
import type { Frame, ScreenSize } from "../prompt.ts";
import { hasName, type PickState } from "./state.ts";
import type { PickRow } from "./threads.ts";

/** What drawing needs besides the state. */
export interface PickRenderOptions {
  now: Date;
  /** Home directory, for `~/` paths. */
  home: string;
  colors?: Colors;
}

const SORT_LABEL = { threaded: "Threaded", recent: "Recent", relevance: "Fuzzy" } as const;

function header(state: PickState, width: number, c: Colors): string {
  const list = state.lists[state.scope];
  const loading = list && !list.done ? `Loading ${list.loaded}/${list.total ?? "…"}` : undefined;
  const current = state.scope === "current" ? (loading ?? "◉ Current Folder") : "○ Current Folder";
  const all = state.scope === "all" ? (loading ?? "◉ All") : "○ All";
  const right = `${current} | ${all}  Name: ${state.namedOnly ? "Named" : "All"}  Sort: ${SORT_LABEL[state.sort]}`;
  const title = state.scope === "current" ? "Resume Session (Current Folder)" : "Resume Session (All)";
  return c.bold(spread(title, right, width));
}

function hints(state: PickState, width: number, c: Colors): [string, string] {
  const { mode, status } = state;
  if (mode.kind === "delete") return [c.red(fit("Delete session? enter confirm · any other key cancels", width)), c.dim(fit(mode.path, width))];
  if (mode.kind === "rename") return [c.gray(fit("Rename session (enter saves, escape cancels)", width)), ""];
  if (status) return [(status.error ? c.red : c.cyan)(fit(status.text, width)), ""];
  const path = state.showPath ? "on" : "off";
  return [
    c.gray(fit('tab scope · re:<pattern> regex · "phrase" exact', width)),
    c.gray(fit(`ctrl+s sort · ctrl+n named · ctrl+d delete · ctrl+p path (${path}) · ctrl+r rename`, width)),
  ];
}

function rowLine(row: PickRow, selected: boolean, state: PickState, width: number, options: PickRenderOptions): string {
  const c = options.colors ?? PLAIN;
  const { session } = row;
  const right = [
    ...(state.showPath ? [oneLine(tildePath(session.path, options.home))] : []),
    ...(state.scope === "all" && session.cwd ? [oneLine(tildePath(session.cwd, options.home))] : []),
    `${session.messageCount} ${relativeAge(session.modified, options.now)}`,
  ].join(" ");
  const deleting = state.mode.kind === "delete" && state.mode.path === session.path;
  // As pi: the title gets what the rest leaves, but at least 10 cells.
  const room = Math.max(10, width - 2 - textWidth(row.prefix) - textWidth(right) - 2);
  const title = fit((session.name ?? session.firstMessage).trim(), room);
  const gap = Math.max(1, width - 2 - textWidth(row.prefix) - textWidth(title) - textWidth(right));
  const spans: Span[] = [
    { text: selected ? "› " : "  ", tone: "accent" },
    { text: row.prefix, tone: "dim" },
    { text: title, tone: deleting ? "error" : hasName(session) ? "warning" : "plain" },
    { text: " ".repeat(gap), tone: "plain" },
    { text: right, tone: deleting ? "error" : "dim" },
  ];
  const line = paint(spans, width, c);
  return selected ? c.bold(line) : line;
}

/** While the texts are scanned for the query: how far the scan got. */
function scanning(state: PickState): string | undefined {
  const scan = state.textScan;
  if (!state.query.trim() || !scan || scan.done) return undefined;
  return `Searching messages ${scan.scanned}/${scan.total ?? "…"}`;
}

function emptyMessage(state: PickState): string {
  const list = state.lists[state.scope];
  if (list && !list.done && list.sessions.length === 0) return "  Reading sessions…";
  const searching = scanning(state);
  if (searching) return `  ${searching}`;
  if (state.query.trim()) return "  No matching sessions";
  if (state.namedOnly) {
    return state.scope === "all" ? "  No named sessions found. Press ctrl+n to show all." : "  No named sessions in current folder. Press ctrl+n to show all, or tab to view all.";
  }
  return state.scope === "all" ? "  No sessions found" : "  No sessions in current folder. Press tab to view all.";
}

/**
 * The picker's frame; the cursor sits on the query (or new name) line.
 *
 * @example
 * ```ts
 * // renderPick(state, { columns: 80, rows: 24 }, { now: new Date(), home: "/home/me" }).lines
 * ```
 */
export function renderPick(state: PickState, size: ScreenSize, options: PickRenderOptions): Frame {
  const width = Math.max(1, size.columns);
  const c = options.colors ?? PLAIN;
  const input = inputLine(state.mode.kind === "rename" ? `New name: ${state.mode.input}` : `> ${state.query}`, width);
  const lines = [header(state, width, c), ...hints(state, width, c), input, ""];
  if (state.queryError !== undefined) {
    lines.push(c.red(fit(`  Invalid regex: ${state.queryError}`, width)));
  } else if (state.rows.length === 0) {
    lines.push(c.gray(fit(emptyMessage(state), width)));
  } else {
    const start = windowStart(state.selected, state.rows.length, state.pageSize);
    const end = Math.min(start + state.pageSize, state.rows.length);
    for (let i = start; i < end; i++) lines.push(rowLine(state.rows[i], i === state.selected, state, width, options));
    const searching = scanning(state);
    lines.push(c.gray(fit(`  (${state.selected + 1}/${state.rows.length})${searching ? `  ${searching}` : ""}`, width)));
  }
  return { lines, cursor: 3 };
}
