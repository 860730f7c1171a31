/**
 * The spend and size metrics, read off the query layer's values and nothing else, so that
 * `/metrics` adds up to exactly what `stats --all --json` prints: tokens and dollars per
 * project and model from `stats --by project --breakdown` (each entry counted once, forks and
 * clones included), sessions and messages per project from `list --all`'s sessions.
 * @module
 */
import type { UsageTotals as Usage } from "../../core/info/usage-totals.ts";
import type { MetricFamily, Sample } from "./prometheus-text.ts";
import type { ProjectCount } from "../../query/list-pages.ts";

/** The parts of `stats --all --by project --breakdown --json` used here. */
export interface ProjectStats {
  rows: (Usage & { key: string; models?: (Usage & { key: string })[] })[];
}

const TOKEN_KINDS = [["input", "input"], ["output", "output"], ["cacheRead", "cache_read"], ["cacheWrite", "cache_write"]] as const;

/** Token and cost counters by project and model. */
export function usageFamilies(stats: ProjectStats): MetricFamily[] {
  const tokens: Sample[] = [];
  const cost: Sample[] = [];
  for (const row of stats.rows) {
    // A row without a breakdown (no usage by model) still counts, under model "".
    for (const usage of row.models ?? [{ ...row, key: "" }]) {
      const labels = { project: row.key, model: usage.key };
      for (const [field, type] of TOKEN_KINDS) tokens.push({ labels: { ...labels, type }, value: usage[field] });
      cost.push({ labels, value: usage.cost.total });
    }
  }
  return [
    {
      name: "pi_session_tokens_total",
      help: "Tokens used, by project, model and type (input, output, cache_read, cache_write); each entry counted once, as `pi-session stats` counts",
      type: "counter",
      samples: tokens,
    },
    {
      name: "pi_session_cost_dollars_total",
      help: "Cost in dollars by project and model; each entry counted once, as `pi-session stats` counts",
      type: "counter",
      samples: cost,
    },
  ];
}

/** Session and message counts by project (`list --all`'s sessions, added up per header cwd). */
export function catalogFamilies(counts: readonly ProjectCount[]): MetricFamily[] {
  const sorted = [...counts].sort((a, b) => a.cwd.localeCompare(b.cwd));
  const samples = (value: (count: ProjectCount) => number) => sorted.map((count) => ({ labels: { project: count.cwd }, value: value(count) }));
  return [
    { name: "pi_session_sessions", help: "Session files by project (the session header's cwd)", type: "gauge", samples: samples((count) => count.sessions) },
    { name: "pi_session_messages", help: "Messages in session files by project, as `list` counts them", type: "gauge", samples: samples((count) => count.messages) },
  ];
}
