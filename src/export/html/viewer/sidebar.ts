/**
 * The sidebar: search box, pi's five filters, and the tree as a virtual list (fixed-height
 * rows, only those in view are in the DOM), so 100,000 entries scroll like 100.
 * @module
 */
import { h } from "./dom.ts";
import { TREE_FILTERS, type TreeFilter } from "../../../core/tree/tree-filter.ts";
import type { TreeRow } from "./tree-model.ts";

const ROW_HEIGHT = 24;
const OVERSCAN = 12;

const FILTER_TITLES: Record<TreeFilter, [string, string]> = {
  default: ["Default", "Hide settings entries"],
  "no-tools": ["No tools", "Default, and hide tool results"],
  "user-only": ["User", "Only user messages"],
  "labeled-only": ["Labeled", "Only labeled entries"],
  all: ["All", "Every entry"],
};

export interface SidebarEvents {
  select(id: string): void;
  query(filter: TreeFilter, search: string): void;
}

export class Sidebar {
  readonly element: HTMLElement;
  readonly #scroller: HTMLElement;
  readonly #spacer: HTMLElement;
  readonly #status: HTMLElement;
  readonly #search: HTMLInputElement;
  readonly #buttons = new Map<TreeFilter, HTMLButtonElement>();
  readonly #events: SidebarEvents;
  #rows: TreeRow[] = [];
  #total = 0;
  #onPath: ReadonlySet<string> = new Set();
  #target: string | null = null;
  #filter: TreeFilter = "default";
  #drawn = "";

  /** `filter`: the one pressed at first (the viewer starts at `default`; a served page at its URL's). */
  constructor(events: SidebarEvents, filter: TreeFilter = "default") {
    this.#events = events;
    this.#search = h("input", { class: "search", type: "search", attrs: { placeholder: "Search the tree…", "aria-label": "Search the tree" } });
    const filters = h("div", { class: "filters", role: "group" });
    for (const filter of TREE_FILTERS) {
      const [text, title] = FILTER_TITLES[filter];
      const button = h("button", { class: "filter", type: "button", title, data: { filter } }, text);
      button.addEventListener("click", () => this.#setFilter(filter));
      this.#buttons.set(filter, button);
      filters.appendChild(button);
    }
    this.#spacer = h("div", { class: "tree-spacer" });
    this.#scroller = h("div", { class: "tree", role: "tree" }, this.#spacer);
    this.#status = h("div", { class: "tree-status" });
    this.element = h("aside", { class: "sidebar" }, h("div", { class: "side-head" }, this.#search, filters), this.#scroller, this.#status);
    this.#search.addEventListener("input", () => this.#events.query(this.#filter, this.#search.value));
    this.#scroller.addEventListener("scroll", () => this.#draw(), { passive: true });
    this.#spacer.addEventListener("click", (event) => {
      const row = (event.target as Element).closest<HTMLElement>(".tree-row");
      if (row?.dataset.id && !window.getSelection()?.toString()) this.#events.select(row.dataset.id);
    });
    this.#setFilter(filter, false);
  }

  get filter(): TreeFilter {
    return this.#filter;
  }

  #setFilter(filter: TreeFilter, notify = true): void {
    this.#filter = filter;
    for (const [name, button] of this.#buttons) {
      button.classList.toggle("active", name === filter);
      button.setAttribute("aria-pressed", String(name === filter));
    }
    if (notify) this.#events.query(filter, this.#search.value);
  }

  /** New rows (after a filter, search or branch change). */
  setRows(rows: TreeRow[], total: number): void {
    this.#rows = rows;
    this.#total = total;
    this.#spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    this.#status.textContent = `${rows.length.toLocaleString("en-US")} / ${total.toLocaleString("en-US")} entries`;
    this.#drawn = "";
    this.#draw();
  }

  /** Marks the branch and the target entry, and scrolls the target's row into view. */
  mark(onPath: ReadonlySet<string>, target: string | null): void {
    this.#onPath = onPath;
    this.#target = target;
    const index = target === null ? -1 : this.#rows.findIndex((row) => row.id === target);
    if (index >= 0) {
      const top = index * ROW_HEIGHT;
      const view = this.#scroller.clientHeight;
      if (top < this.#scroller.scrollTop || top + ROW_HEIGHT > this.#scroller.scrollTop + view) {
        this.#scroller.scrollTop = Math.max(0, top - view / 2);
      }
    }
    this.#drawn = "";
    this.#draw();
  }

  #draw(): void {
    const first = Math.max(0, Math.floor(this.#scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const count = Math.ceil((this.#scroller.clientHeight || 600) / ROW_HEIGHT) + OVERSCAN * 2;
    const last = Math.min(this.#rows.length, first + count);
    const key = `${first}:${last}`;
    if (key === this.#drawn) return;
    this.#drawn = key;
    const fragment = document.createDocumentFragment();
    for (let i = first; i < last; i++) fragment.appendChild(this.#row(this.#rows[i], i));
    this.#spacer.textContent = "";
    this.#spacer.appendChild(fragment);
  }

  #row(row: TreeRow, index: number): HTMLElement {
    const onPath = this.#onPath.has(row.id);
    const classes = ["tree-row", `kind-${row.kind.replace(/[^A-Za-z0-9_-]/g, "")}`];
    if (onPath) classes.push("on-path");
    if (row.id === this.#target) classes.push("target");
    const el = h(
      "div",
      { class: classes.join(" "), title: row.text, role: "treeitem", data: { id: row.id } },
      // Deeper than 30 levels, only the innermost are drawn.
      row.guide ? h("span", { class: "guide", attrs: { "aria-hidden": "true" } }, row.guide.slice(-60)) : null,
      h("span", { class: "marker" }, onPath ? "•" : ""),
      row.label !== undefined ? h("span", { class: "label" }, row.label) : null,
      h("span", { class: "row-text" }, row.text),
    );
    el.style.top = `${index * ROW_HEIGHT}px`;
    return el;
  }
}
