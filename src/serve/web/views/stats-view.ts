/**
 * The stats dashboard's tables (totals, projects, top sessions) and the data its charts are
 * drawn from in the browser (cost and tokens per day stacked by model, cost by project).
 * @module
 */
import { html, type Raw } from "../html.ts";
import { count, dollars, shortCwd } from "./format.ts";
import type { StatsRow, StatsValue, UsageValue } from "./values.ts";

/** Series for the charts: x = day starts (seconds), one series per model. */
export interface ChartData {
  days: number[];
  models: string[];
  /** cost[m][d], tokens[m][d] */
  cost: number[][];
  tokens: number[][];
}

/** Chart data from `stats --by day --breakdown`. */
export function chartData(byDay: StatsValue): ChartData {
  const rows = [...byDay.rows].sort((a, b) => a.key.localeCompare(b.key));
  const models = [...new Set(rows.flatMap((r) => (r.models ?? []).map((m) => m.key)))].sort();
  const days = rows.map((r) => Date.parse(`${r.key}T00:00:00Z`) / 1000);
  const series = (pick: (u: UsageValue) => number) => models.map((model) => rows.map((r) => pick(r.models?.find((m) => m.key === model) ?? ZERO)));
  return { days, models, cost: series((u) => u.cost.total), tokens: series((u) => u.totalTokens) };
}

const ZERO: UsageValue = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function usageRow(key: Raw | string, row: StatsRow): Raw {
  return html`<tr><th scope="row">${key}</th><td>${count(row.sessions)}</td><td>${count(row.totalTokens)}</td><td>${dollars(row.cost.total)}</td></tr>`;
}

function table(caption: string, first: string, rows: Raw[]): Raw {
  return html`<table class="usage"><caption>${caption}</caption><thead><tr><th>${first}</th><th>Sessions</th><th>Tokens</th><th>Cost</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function statsView(totals: StatsValue, byProject: StatsValue, bySession: StatsValue, byModel: StatsValue): Raw {
  const t = totals.totals;
  const top = [...bySession.rows].sort((a, b) => b.cost.total - a.cost.total).slice(0, 10);
  const projects = [...byProject.rows].sort((a, b) => b.cost.total - a.cost.total);
  const models = [...byModel.rows].sort((a, b) => b.cost.total - a.cost.total);
  return html`<h1>Stats</h1><p class="totals"><strong>${dollars(t.cost.total)}</strong> · ${count(t.totalTokens)} tokens (${count(t.input)} in, ${count(t.output)} out, ${count(t.cacheRead)} cache read, ${
    count(t.cacheWrite)
  } cache write) · forks and clones counted once</p>
<section class="charts"><figure><figcaption>Cost per day, by model</figcaption><div class="chart" id="chart-cost"></div></figure><figure><figcaption>Tokens per day, by model</figcaption><div class="chart" id="chart-tokens"></div></figure></section>
${table("By model", "Model", models.map((r) => usageRow(r.key, r)))}
${table("By project", "Project", projects.map((r) => usageRow(html`<span title="${r.key}">${shortCwd(r.key)}</span>`, r)))}
${table("Top sessions", "Session", top.map((r) => usageRow(html`<a href="/sessions/${encodeURIComponent(r.key)}">${r.key.slice(0, 8)}</a>`, r)))}`;
}
