/**
 * A session page's sidebar: the export viewer's own (search box, pi's five filters, the tree as
 * a virtual list), fed from the API instead of the whole file: the rows of a filter from
 * `/tree?filter=`, and a search through the catalog's full-text index (`/api/search?session=`),
 * so a 1 GB session is searched without its text ever coming to the browser.
 * @module
 */
import { Sidebar } from "../../../export/html/viewer/sidebar.ts";
import type { TreeRow } from "../../../export/html/viewer/tree-model.ts";
import { TREE_FILTERS, type TreeFilter } from "../../../core/tree/tree-filter.ts";
import type { SearchHit, TreeValue } from "../views/values.ts";
import { sidebarRows } from "./tree-guides.ts";

type Fetch = <T>(url: string) => Promise<{ value: T; ok: boolean }>;

export interface SessionSidebarOptions {
  sessionId: string;
  filter: string;
  /** The entries of the branch shown, and the one targeted, for marking. */
  onBranch: ReadonlySet<string>;
  target: () => string | null;
  /** A row was clicked. */
  select(id: string): void;
  getJson: Fetch;
}

/** Search hits kept per query: enough to fill the tree of a long session's matches. */
const HITS = 2000;

export class SessionSidebar {
  readonly sidebar: Sidebar;
  readonly #options: SessionSidebarOptions;
  readonly #api: string;
  #trees = new Map<TreeFilter, Promise<TreeRow[]>>();
  #filter: TreeFilter;
  #search = "";
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: SessionSidebarOptions) {
    this.#options = options;
    this.#api = `/api/sessions/${encodeURIComponent(options.sessionId)}`;
    this.#filter = (TREE_FILTERS as readonly string[]).includes(options.filter) ? options.filter as TreeFilter : "default";
    this.sidebar = new Sidebar({
      select: (id) => options.select(id),
      query: (filter, search) => {
        const typed = filter === this.#filter;
        this.#filter = filter;
        this.#search = search.trim();
        // Typing waits for a pause; a filter button answers at once.
        clearTimeout(this.#timer);
        if (typed) this.#timer = setTimeout(() => void this.refresh(), 200);
        else void this.refresh();
      },
    }, this.#filter);
    this.sidebar.element.dataset.filter = this.#filter;
  }

  /** Forgets the rows fetched (the session grew) and draws again. */
  reload(): Promise<void> {
    this.#trees.clear();
    return this.refresh();
  }

  #rows(filter: TreeFilter): Promise<TreeRow[]> {
    let rows = this.#trees.get(filter);
    if (!rows) {
      rows = this.#options.getJson<TreeValue>(`${this.#api}/tree?filter=${filter}`).then(({ value, ok }) => (ok ? sidebarRows(value.rows) : []));
      this.#trees.set(filter, rows);
    }
    return rows;
  }

  /** Draws the rows of the current filter, narrowed to the search's hits when there is one. */
  async refresh(): Promise<void> {
    const mine = ++this.#seq;
    const [filter, search] = [this.#filter, this.#search];
    const all = await this.#rows(filter);
    let rows = all;
    if (search !== "") {
      const params = new URLSearchParams({ q: search, session: this.#options.sessionId, limit: String(HITS) });
      const { value, ok } = await this.#options.getJson<SearchHit[]>(`/api/search?${params}`);
      const hit = new Set(ok ? value.map((h) => h.entryId) : []);
      rows = all.filter((row) => hit.has(row.id));
    }
    if (mine !== this.#seq) return;
    this.sidebar.setRows(rows, all.length);
    this.sidebar.element.dataset.filter = filter;
    this.sidebar.element.dataset.search = search;
    this.mark();
  }

  /** Marks the branch and the targeted entry again. */
  mark(): void {
    this.sidebar.mark(this.#options.onBranch, this.#options.target());
  }
}
