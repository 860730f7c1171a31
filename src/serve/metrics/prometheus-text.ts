/**
 * The Prometheus text exposition format (version 0.0.4), written from plain values: metric
 * families with help, type and samples, label values escaped as the format asks.
 * @module
 */

export type MetricType = "counter" | "gauge" | "histogram";

export interface Sample {
  /** Suffix to the family name (`_bucket`, `_sum`, `_count`), or "" for the family itself. */
  suffix?: string;
  labels?: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/**
 * The exposition text of `families`.
 *
 * @example
 * ```ts
 * prometheusText([{ name: "up", help: "Up", type: "gauge", samples: [{ value: 1 }] }]);
 * // "# HELP up Up\n# TYPE up gauge\nup 1\n"
 * ```
 */
export function prometheusText(families: readonly MetricFamily[]): string {
  let out = "";
  for (const family of families) {
    out += `# HELP ${family.name} ${escapeHelp(family.help)}\n# TYPE ${family.name} ${family.type}\n`;
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels ?? {});
      const labelText = labels.length === 0 ? "" : `{${labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
      out += `${family.name}${sample.suffix ?? ""}${labelText} ${formatValue(sample.value)}\n`;
    }
  }
  return out;
}

/** Bucket bounds in seconds, from a millisecond to half a minute. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A histogram per label set, kept in memory (cumulative, as Prometheus expects). */
export class Histogram {
  readonly #series = new Map<string, { labels: Record<string, string>; counts: number[]; sum: number; count: number }>();
  readonly buckets: readonly number[];

  constructor(buckets: readonly number[] = DURATION_BUCKETS) {
    this.buckets = buckets;
  }

  observe(labels: Record<string, string>, value: number): void {
    const key = JSON.stringify(labels);
    let series = this.#series.get(key);
    if (!series) this.#series.set(key, series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 });
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]) series.counts[i]++;
    series.sum += value;
    series.count++;
  }

  samples(): Sample[] {
    const out: Sample[] = [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      this.buckets.forEach((le, i) => out.push({ suffix: "_bucket", labels: { ...labels, le: String(le) }, value: counts[i] }));
      out.push({ suffix: "_bucket", labels: { ...labels, le: "+Inf" }, value: count });
      out.push({ suffix: "_sum", labels, value: sum });
      out.push({ suffix: "_count", labels, value: count });
    }
    return out;
  }
}
