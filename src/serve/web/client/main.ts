/**
 * The pages' one script: search as you type and paging on the sessions page, paging and live
 * following on a session page, uPlot charts on the stats page, and the event stream that
 * keeps the first two current. Every page is complete without it; this only adds to it.
 * @module
 */
import uPlot from "uplot";
import { hitRows, sessionRows } from "../views/session-list.ts";
import { entriesView, factsView } from "../views/session-view.ts";
import { SessionSidebar } from "./session-sidebar.ts";
import type { ChartData } from "../views/stats-view.ts";
import type { InfoValue, ListedSession, SearchHit, StatsValue } from "../views/values.ts";
import type { SessionEntry } from "../../../core/format/types.ts";

const data = JSON.parse(document.getElementById("page-data")?.textContent || "null") ?? {};
const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector(selector) as T | null;

async function getJson<T>(url: string): Promise<{ value: T; next: string | null; ok: boolean; status: number }> {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const value = await response.json() as T;
  return { value, next: response.headers.get("X-Next-Cursor"), ok: response.ok, status: response.status };
}

function debounce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

type Listener = (type: string, event: { id: string; size?: number; name?: string | null }) => void;
const listeners: Listener[] = [];

function connectEvents(): void {
  if (!("EventSource" in window)) return;
  const source = new EventSource("/api/events");
  const live = $("#live");
  source.addEventListener("ready", () => live?.classList.add("on"));
  source.addEventListener("error", () => live?.classList.remove("on"));
  for (const type of ["created", "appended", "renamed", "deleted"]) {
    source.addEventListener(type, (e) => {
      const event = JSON.parse((e as MessageEvent).data);
      for (const listener of listeners) listener(type, event);
    });
  }
}

function sessionsPage(): void {
  const rows = $("#rows")!;
  const input = $<HTMLInputElement>("#q");
  const more = $<HTMLButtonElement>("#more");
  let next: string | null = data.next ?? null;
  const filters = () => {
    const params = new URLSearchParams(location.search);
    params.delete("q");
    params.delete("cursor");
    return params;
  };
  const showMore = () => more && (more.hidden = next === null);
  showMore();
  const list = async () => {
    const params = filters();
    params.set("limit", String(Math.max(50, rows.querySelectorAll(".row").length)));
    const { value, next: cursor } = await getJson<ListedSession[]>(`/api/sessions?${params}`);
    rows.innerHTML = sessionRows(value).html;
    next = cursor;
    showMore();
  };
  let seq = 0;
  const search = async () => {
    const q = input?.value.trim() ?? "";
    const url = new URL(location.href);
    if (q) url.searchParams.set("q", q);
    else url.searchParams.delete("q");
    history.replaceState(null, "", url);
    const mine = ++seq;
    if (!q) return list();
    const params = new URLSearchParams({ q, limit: "50" });
    for (const bound of ["since", "until"]) {
      const value = url.searchParams.get(bound);
      if (value) params.set(bound, value);
    }
    const { value, ok } = await getJson<SearchHit[] | { error: { message: string } }>(`/api/search?${params}`);
    if (mine !== seq) return;
    rows.innerHTML = ok ? hitRows(value as SearchHit[]).html : `<li class="empty"></li>`;
    if (!ok) rows.firstElementChild!.textContent = (value as { error: { message: string } }).error.message;
    next = null;
    showMore();
  };
  input?.addEventListener("input", debounce(() => void search(), 150));
  // The other filters apply as soon as they change (the form's Apply button is for pages without script).
  const form = $<HTMLFormElement>("#filters");
  form?.addEventListener("change", (e) => {
    if (e.target !== input) form.requestSubmit();
  });
  // The models to choose from: those of the stats (a part of a name works too, as list --model takes it).
  void getJson<StatsValue>("/api/stats?by=model").then(({ value, ok }) => {
    const choices = $("#models");
    if (!ok || !choices) return;
    for (const row of value.rows) {
      if (row.key === "Tools/summaries") continue;
      const option = document.createElement("option");
      option.value = row.key;
      choices.appendChild(option);
    }
  });
  more?.addEventListener("click", async () => {
    if (next === null) return;
    const params = filters();
    params.set("cursor", next);
    const { value, next: cursor } = await getJson<ListedSession[]>(`/api/sessions?${params}`);
    rows.insertAdjacentHTML("beforeend", sessionRows(value).html);
    next = cursor;
    showMore();
  });
  const refresh = debounce(() => {
    if (!(input?.value.trim())) void list();
  }, 300);
  listeners.push(() => refresh());
}

/** A branch entry further than this below the entries shown gets a page of its own rather than paging to it. */
const JUMP = 400;

function sessionPage(): void {
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
      do {
        again = false;
        const after = last ? `&after=${encodeURIComponent(last)}` : "";
        const { value, ok } = await getJson<{ entries: SessionEntry[] }>(`${api}/entries?limit=2000${after}`);
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
        await drawTree();
      } while (again);
    } finally {
      busy = false;
    }
  };
  listeners.push((type, event) => {
    if (event.id === sessionId && type === "appended") void follow();
  });
}

function statsPage(): void {
  const chart: ChartData | undefined = data.chart;
  if (!chart || chart.days.length === 0) return;
  const dark = matchMedia("(prefers-color-scheme: dark)").matches;
  const palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  const draw = (id: string, series: number[][], unit: (v: number) => string) => {
    const box = document.getElementById(id);
    if (!box) return;
    // Stacked: each series is drawn as the running sum of those before it.
    const stacked: number[][] = [];
    const order = chart.models.map((_, i) => i).reverse();
    series.forEach((s, i) => stacked.push(s.map((v, d) => v + (i > 0 ? stacked[i - 1][d] : 0))));
    const axis = { stroke: dark ? "#8d96a0" : "#656d76", grid: { stroke: dark ? "#30363d" : "#eaeef2" } };
    const options: uPlot.Options = {
      width: Math.max(280, box.clientWidth),
      height: 240,
      // The biggest sum first, so the smaller ones are drawn over it.
      series: [{}, ...order.map((i) => ({
        label: chart.models[i] || "(unknown)",
        stroke: palette[i % palette.length],
        fill: palette[i % palette.length] + "55",
        value: (_u: uPlot, v: number | null) => (v === null ? "" : unit(v)),
      }))],
      axes: [axis, { ...axis, values: (_u: uPlot, ticks: number[]) => ticks.map(unit) }],
    };
    const plot = new uPlot(options, [chart.days, ...order.map((i) => stacked[i])] as uPlot.AlignedData, box);
    new ResizeObserver(() => plot.setSize({ width: Math.max(280, box.clientWidth), height: 240 })).observe(box);
    box.dataset.drawn = String(chart.days.length);
  };
  const money = (v: number) => (v >= 1 ? `$${v.toFixed(0)}` : `$${v.toFixed(2)}`);
  const tokens = (v: number) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(0)}k` : String(v));
  draw("chart-cost", chart.cost, money);
  draw("chart-tokens", chart.tokens, tokens);
}

const page = document.body.dataset.page;
if (page === "sessions") sessionsPage();
else if (page === "session") sessionPage();
else if (page === "stats") statsPage();
connectEvents();
document.body.dataset.ready = "true";
