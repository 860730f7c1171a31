/**
 * A session page's script: the export viewer's sidebar (search, filters, the tree), paging the
 * branch's entries from the API, jumps to an entry, the viewer's toggles, and following the
 * session live as pi appends to it.
 * @module
 */
import type { SessionEntry } from "../../../core/format/types.ts";
import { entriesView, factsView } from "../views/session-view.ts";
import type { InfoValue } from "../views/values.ts";
import { $, data, getJson, listeners } from "./common.ts";
import { SessionSidebar } from "./session-sidebar.ts";

/** A branch entry further than this below the entries shown gets a page of its own rather than paging to it. */
const JUMP = 400;
/** Pages fetched while following before the page reloads instead (a file that grew by over this many MB). */
const FOLLOW_PAGES = 64;

export function sessionPage(): void {
  const sessionId: string = data.sessionId;
  const api = `/api/sessions/${encodeURIComponent(sessionId)}`;
  const list = $("#entries")!;
  const more = $<HTMLButtonElement>("#more-entries");
  // The branch shown, root to leaf; the API pages the file in file order, where a branch's
  // entries come in the same order, so a page's entries on the branch are appended as they come.
  const branch: string[] = data.branch ?? [];
  const onBranch = new Set(branch);
  const start: number = data.start ?? 0;
  let shown: number = data.shown ?? 0;
  let cursor: string | null = shown > 0 ? branch[shown - 1] : null;
  let leaf: string | null = branch.at(-1) ?? null;
  const append = (entries: SessionEntry[]) => {
    if (entries.length === 0) return;
    const at = list.children.length;
    list.insertAdjacentHTML("beforeend", entriesView(sessionId, entries).html);
    if (opened.thinking || opened.output) for (const added of Array.from(list.children).slice(at)) applyToggles(added);
  };
  void getJson<InfoValue>(api).then(({ value, ok }) => {
    const facts = $("#facts");
    if (ok && facts) facts.innerHTML = factsView(value).html;
  });
  // The export viewer's sidebar in place of the tree drawn by the server: search, filters, a virtual list.
  // A fragment that is not valid percent-encoding names no entry (decoding it would throw).
  const hashId = () => {
    if (!location.hash.startsWith("#entry-")) return null;
    try {
      return decodeURIComponent(location.hash.slice(7));
    } catch {
      return null;
    }
  };
  const side = new SessionSidebar({
    sessionId,
    filter: data.filter ?? "default",
    onBranch,
    target: hashId,
    getJson,
    select: (id) => {
      if (onBranch.has(id)) {
        if (hashId() === id) void target();
        else location.hash = `entry-${encodeURIComponent(id)}`;
        return;
      }
      // Another branch: the page of the branch through that entry.
      const params = new URLSearchParams({ leaf: id });
      const filter = side.sidebar.filter;
      if (filter !== "default") params.set("filter", filter);
      location.assign(`/sessions/${encodeURIComponent(sessionId)}?${params}#entry-${encodeURIComponent(id)}`);
    },
  });
  // The tree the server drew stays until the sidebar has its rows: no empty flash.
  void side.refresh().then(() => {
    $(".session > .side")?.replaceChildren(side.sidebar.element);
    side.mark();
  });
  const drawTree = () => side.reload();
  // The viewer's toggles: thinking and long tool output open or folded, on every entry shown.
  const opened = { thinking: false, output: false };
  // Hidden custom messages stay in view on a page without script, where no button could show them.
  document.body.classList.add("js");
  const applyToggles = (root: ParentNode) => {
    for (const [kind, open] of Object.entries(opened)) root.querySelectorAll<HTMLDetailsElement>(`details.${kind}`).forEach((d) => (d.open = open));
  };
  document.querySelectorAll<HTMLButtonElement>("button.toggle[data-toggle]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => {
      if (button.dataset.toggle === "hidden") {
        button.setAttribute("aria-pressed", String(document.body.classList.toggle("show-hidden")));
        return;
      }
      const kind = button.dataset.toggle as keyof typeof opened;
      opened[kind] = !opened[kind];
      button.setAttribute("aria-pressed", String(opened[kind]));
      applyToggles(list);
    });
  });
  $("#command")?.addEventListener("click", (e) => void navigator.clipboard?.writeText((e.currentTarget as HTMLElement).textContent ?? ""));
  const loadMore = async () => {
    if (shown >= branch.length) return false;
    const wanted = shown + 200;
    while (shown < Math.min(wanted, branch.length)) {
      const after = cursor ? `&after=${encodeURIComponent(cursor)}` : "";
      const { value, ok } = await getJson<{ entries: SessionEntry[]; nextAfter: string | null }>(`${api}/entries?limit=1000${after}`);
      if (!ok) return false;
      append(value.entries.filter((e) => onBranch.has(e.id)));
      shown += value.entries.filter((e) => onBranch.has(e.id)).length;
      cursor = value.entries.at(-1)?.id ?? cursor;
      if (value.nextAfter === null) shown = branch.length;
    }
    if (more) more.hidden = shown >= branch.length;
    return true;
  };
  more?.addEventListener("click", () => void loadMore());
  const target = async () => {
    document.querySelectorAll(".entry.target, .tree-row.target").forEach((e) => e.classList.remove("target"));
    const id = hashId();
    if (id === null) return;
    let element = document.getElementById(`entry-${id}`);
    // Before this page, or far below it: the page that starts there (paging a long branch to it would take long).
    const index = branch.indexOf(id);
    if (!element && index >= 0 && (index < start || index >= shown + JUMP)) {
      const url = new URL(location.href);
      url.searchParams.set("from", id);
      return location.assign(url);
    }
    // The entry may be a little further down the branch than the pages shown: page until it is there.
    while (!element && onBranch.has(id) && await loadMore()) element = document.getElementById(`entry-${id}`);
    if (!element) return;
    element.classList.add("target");
    element.scrollIntoView({ block: "center" });
    side.mark();
  };
  addEventListener("hashchange", () => void target());
  void target();
  // A session page without ?leaf= follows the session's newest entry as pi's file grows.
  if (!data.follow) return;
  let busy = false;
  let again = false;
  let last: string | null = leaf;
  const follow = async () => {
    if (busy) return void (again = true);
    busy = true;
    try {
      // A page ends at 2,000 entries or 1 MB of lines: a burst bigger than that takes more pages,
      // fetched now rather than at the next append (FOLLOW_PAGES such pages in a row, then a reload).
      let pages = 0;
      do {
        again = false;
        const after = last ? `&after=${encodeURIComponent(last)}` : "";
        const { value, ok } = await getJson<{ entries: SessionEntry[]; nextAfter: string | null }>(`${api}/entries?limit=2000${after}`);
        if (!ok) return location.reload();
        for (const entry of value.entries) {
          // pi went on from another entry (a branch switch, a compaction's new start): draw that branch.
          if (entry.parentId !== leaf) return location.reload();
          branch.push(entry.id);
          onBranch.add(entry.id);
          leaf = entry.id;
          last = entry.id;
          // Entries further down than the pages loaded so far come with the next page instead.
          if (shown === branch.length - 1) {
            append([entry]);
            shown++;
          }
        }
        if (value.nextAfter === null) {
          pages = 0;
          await drawTree();
        } else if (++pages >= FOLLOW_PAGES) return location.reload();
        else again = true;
      } while (again);
    } finally {
      busy = false;
    }
  };
  listeners.push((type, event) => {
    if (event.id === sessionId && type === "appended") void follow();
  });
}
