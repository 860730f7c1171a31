/**
 * The pages' script: search as you type, filters and paging on the sessions page, a session
 * page's sidebar, paging and live following (session-page.ts), uPlot charts on the stats page,
 * and the event stream that keeps the first two current. Every page is complete without it;
 * this only adds to it.
 * @module
 */
import uPlot from "uplot";
import { hitRows, sessionRows } from "../views/session-list.ts";
import type { ChartData } from "../views/stats-view.ts";
import type { ListedSession, SearchHit, StatsValue } from "../views/values.ts";
import { $, connectEvents, data, debounce, getJson, listeners } from "./common.ts";
import { sessionPage } from "./session-page.ts";

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
