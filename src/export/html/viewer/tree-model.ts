/**
 * The viewer's session tree as data: children in time order, paths, the newest leaf under
 * an entry, and the sidebar rows for a filter and a search, with pi's export-viewer rules
 * (the current leaf is always shown; `session_info` is not a settings entry). Pure.
 * @module
 */
import { filterKeeps, type TreeFilter } from "../../../core/tree/tree-filter.ts";
import { collectToolCalls, hasText, messageOf, roleOf, rowText, searchText, type ToolCallInfo, type ViewerEntry } from "./entry-text.ts";

/** What pi's HTML export counts as settings entries: `usage`, not `session_info`. */
const SETTINGS_TYPES = new Set(["label", "custom", "context_edit", "model_change", "thinking_level_change", "usage"]);

/** One visible row of the sidebar. */
export interface TreeRow {
  id: string;
  depth: number;
  text: string;
  /** `user`, `assistant`, `toolResult`, … or the entry type, for styling. */
  kind: string;
  label?: string;
  /**
   * The tree lines before the row, two characters a level (`depth` levels): `├─`/`└─` on the
   * row of a fork's child, `│ ` where a fork's later child is still to come, else blanks.
   */
  guide: string;
}

function time(entry: ViewerEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isNaN(t) ? 0 : t;
}

export class TreeModel {
  readonly byId = new Map<string, ViewerEntry>();
  readonly toolCalls: Map<string, ToolCallInfo>;
  readonly labels: ReadonlyMap<string, string>;
  readonly #children = new Map<string, ViewerEntry[]>();
  readonly #roots: ViewerEntry[] = [];
  #texts = new Map<string, { row: string; search: string }>();

  constructor(entries: readonly ViewerEntry[], labels: ReadonlyMap<string, string>) {
    for (const entry of entries) this.byId.set(entry.id, entry);
    this.labels = labels;
    this.toolCalls = collectToolCalls(this.byId.values());
    for (const entry of this.byId.values()) {
      const parent = entry.parentId;
      if (parent === null || parent === entry.id || !this.byId.has(parent)) {
        this.#roots.push(entry);
        continue;
      }
      const list = this.#children.get(parent);
      if (list) list.push(entry);
      else this.#children.set(parent, [entry]);
    }
    for (const list of this.#children.values()) list.sort((a, b) => time(a) - time(b));
  }

  children(id: string): readonly ViewerEntry[] {
    return this.#children.get(id) ?? [];
  }

  /** Root-to-entry path; stops at a cycle or a missing parent. */
  pathTo(id: string): ViewerEntry[] {
    const path: ViewerEntry[] = [];
    const seen = new Set<string>();
    for (let entry = this.byId.get(id); entry && !seen.has(entry.id); entry = entry.parentId === null ? undefined : this.byId.get(entry.parentId)) {
      seen.add(entry.id);
      path.push(entry);
    }
    return path.reverse();
  }

  /** The newest leaf below `id` (the last child at every level), as pi's viewer picks it. */
  newestLeaf(id: string): string {
    let current = id;
    const seen = new Set<string>([id]);
    for (;;) {
      const kids = this.children(current);
      const next = kids[kids.length - 1];
      if (!next || seen.has(next.id)) return current;
      seen.add(next.id);
      current = next.id;
    }
  }

  /** Number of entries without children. */
  leafCount(): number {
    let count = 0;
    for (const id of this.byId.keys()) if (this.children(id).length === 0) count++;
    return count;
  }

  #text(entry: ViewerEntry): { row: string; search: string } {
    let text = this.#texts.get(entry.id);
    if (!text) {
      const row = rowText(entry, this.toolCalls);
      text = { row, search: searchText(entry, row, this.labels.get(entry.id)) };
      this.#texts.set(entry.id, text);
    }
    return text;
  }

  /** Whether `filter` shows `entry` (before search), with `leafId` the current leaf. */
  passes(entry: ViewerEntry, filter: TreeFilter, leafId: string | null): boolean {
    if (entry.id === leafId) return true;
    const message = messageOf(entry);
    if (message?.role === "assistant") {
      const abnormal = typeof message.stopReason === "string" && message.stopReason !== "stop" && message.stopReason !== "toolUse";
      if (!hasText(message.content) && !abnormal) return false;
    }
    return filterKeeps(filter, { type: entry.type, role: roleOf(entry), labelled: this.labels.has(entry.id) }, SETTINGS_TYPES);
  }

  /**
   * The sidebar rows: pre-order, the current branch first at every fork; a hidden entry's
   * children hang under its nearest shown ancestor; depth grows only below a fork.
   */
  rows(options: { filter: TreeFilter; search: string; leafId: string | null; activePath: ReadonlySet<string> }): TreeRow[] {
    const tokens = options.search.toLowerCase().split(/\s+/).filter(Boolean);
    const order = this.#activeFirst(options.activePath);
    const shown = new Set<string>();
    const visibleParent = new Map<string, string | null>();
    const visibleKids = new Map<string | null, number>();
    const rows: TreeRow[] = [];
    const nearestShown = (entry: ViewerEntry): string | null => {
      let parentId = entry.parentId;
      const seen = new Set<string>();
      while (parentId !== null && !seen.has(parentId)) {
        seen.add(parentId);
        if (shown.has(parentId)) return parentId;
        parentId = this.byId.get(parentId)?.parentId ?? null;
      }
      return null;
    };
    for (const entry of order) {
      if (!this.passes(entry, options.filter, options.leafId)) continue;
      const text = this.#text(entry);
      if (tokens.length > 0 && !tokens.every((t) => text.search.includes(t))) continue;
      shown.add(entry.id);
      const parent = nearestShown(entry);
      visibleParent.set(entry.id, parent);
      visibleKids.set(parent, (visibleKids.get(parent) ?? 0) + 1);
      const label = this.labels.get(entry.id);
      rows.push({ id: entry.id, depth: 0, text: text.row, kind: roleOf(entry) ?? entry.type, ...(label !== undefined ? { label } : {}), guide: "" });
    }
    // What a row's children inherit: its lines, its own connector turned into a gutter.
    const inherited = new Map<string | null, string>([[null, ""]]);
    const placed = new Map<string | null, number>();
    for (const row of rows) {
      const parent = visibleParent.get(row.id) ?? null;
      const base = inherited.get(parent) ?? "";
      const siblings = visibleKids.get(parent) ?? 0;
      const index = placed.get(parent) ?? 0;
      placed.set(parent, index + 1);
      if (siblings > 1) {
        const last = index === siblings - 1;
        row.guide = base + (last ? "└─" : "├─");
        inherited.set(row.id, base + (last ? "  " : "│ "));
      } else {
        row.guide = base;
        inherited.set(row.id, base);
      }
      row.depth = row.guide.length / 2;
    }
    return rows;
  }

  /** Pre-order with the child on the active path visited first at every fork. */
  #activeFirst(activePath: ReadonlySet<string>): ViewerEntry[] {
    const order: ViewerEntry[] = [];
    const seen = new Set<string>();
    const first = (list: readonly ViewerEntry[]) => [...list.filter((e) => activePath.has(e.id)), ...list.filter((e) => !activePath.has(e.id))];
    const stack = first(this.#roots).reverse();
    while (stack.length > 0) {
      const entry = stack.pop()!;
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      order.push(entry);
      const kids = first(this.children(entry.id));
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
    return order;
  }
}
