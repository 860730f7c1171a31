/**
 * Everything `/metrics` reports: spend and counts from the query layer (recomputed only after
 * the watcher saw a change), how long those catalog refreshes took, HTTP request durations,
 * and the open event streams.
 * @module
 */
import type { QueryEnv } from "../../query/env.ts";
import { projectCounts } from "../../query/list-pages.ts";
import { usageStats } from "../../query/stats.ts";
import type { EventStreams } from "../live/event-stream.ts";
import type { SessionWatcher } from "../live/session-watcher.ts";
import { Histogram, type MetricFamily, prometheusText } from "./prometheus-text.ts";
import { catalogFamilies, type ProjectStats, usageFamilies } from "./usage-metrics.ts";

export interface ServeMetricsDeps {
  env: () => QueryEnv;
  watcher: SessionWatcher;
  streams: EventStreams;
  /** True once the background warm-up (every session's header, then the full-text index) ended. */
  warmedUp?: () => boolean;
}

export class ServeMetrics {
  /** Request durations in seconds by method, route pattern and status. */
  readonly http = new Histogram();
  /** Durations of the catalog refreshes behind the metrics, in seconds. */
  readonly refresh = new Histogram();
  readonly #deps: ServeMetricsDeps;
  #cached: Promise<MetricFamily[]> | undefined;

  constructor(deps: ServeMetricsDeps) {
    this.#deps = deps;
    deps.watcher.subscribe(() => (this.#cached = undefined));
  }

  async #sessions(): Promise<MetricFamily[]> {
    const started = performance.now();
    const env = this.#deps.env();
    // One after the other: each holds what it walks only while it walks it.
    const stats = (await usageStats(env, { all: true, by: "project", breakdown: true })).value as ProjectStats;
    const counts = await projectCounts(env);
    this.refresh.observe({}, (performance.now() - started) / 1000);
    return [...usageFamilies(stats), ...catalogFamilies(counts)];
  }

  /** The exposition text; session figures are recomputed when something changed since last time. */
  async text(): Promise<string> {
    const cached = this.#cached ??= this.#sessions();
    let sessions: MetricFamily[];
    try {
      sessions = await cached;
    } catch (error) {
      if (this.#cached === cached) this.#cached = undefined;
      throw error;
    }
    return prometheusText([
      ...sessions,
      { name: "pi_session_catalog_refresh_duration_seconds", help: "Time to bring the catalog up to date and compute the session metrics", type: "histogram", samples: this.refresh.samples() },
      { name: "pi_session_http_request_duration_seconds", help: "HTTP request durations by method, route and status", type: "histogram", samples: this.http.samples() },
      { name: "pi_session_event_streams", help: "Open /api/events streams", type: "gauge", samples: [{ value: this.#deps.streams.size }] },
      { name: "pi_session_warmup_done", help: "1 once the background warm-up after the start (session headers, then the full-text index) has ended", type: "gauge", samples: [{ value: this.#deps.warmedUp?.() ? 1 : 0 }] },
    ]);
  }
}
