/**
 * Spans cut into requests bounded in spans and in bytes, as sessions are read (a run never holds
 * more than one request's spans), each request knowing which sessions it carries: a session is
 * marked sent once every request holding its spans was accepted.
 * @module
 */
import type { SpanRecord } from "./session-spans.ts";

/** OpenTelemetry's default `maxExportBatchSize`. */
export const MAX_BATCH_SPANS = 512;
/** Encoded request size before gzip: well under the receivers' common 4 MiB default. */
export const MAX_BATCH_BYTES = 3 * 1024 * 1024;

export interface Batch {
  /** How many spans it holds. */
  spanCount: number;
  /** Encoded request (not gzipped). */
  body: Uint8Array;
  /** Keys of the sessions whose spans are in it, and how many spans of each. */
  sessions: Map<string, number>;
}

/**
 * Collects spans session by session and hands out batches of at most `maxSpans` spans whose
 * encoding is at most `maxBytes` (a single span over the limit goes alone: the receiver may
 * still take it).
 *
 * @example
 * ```ts
 * const batcher = new Batcher(encode);
 * const ready = batcher.add("a.jsonl", spans); // full batches, if any
 * const last = batcher.flush();
 * ```
 */
export class Batcher {
  readonly #encode: (spans: readonly SpanRecord[]) => Uint8Array;
  readonly #maxSpans: number;
  readonly #maxBytes: number;
  #spans: SpanRecord[] = [];
  #owners: string[] = [];

  constructor(encode: (spans: readonly SpanRecord[]) => Uint8Array, limits: { maxSpans?: number; maxBytes?: number } = {}) {
    this.#encode = encode;
    this.#maxSpans = limits.maxSpans ?? MAX_BATCH_SPANS;
    this.#maxBytes = limits.maxBytes ?? MAX_BATCH_BYTES;
  }

  /** Adds a session's spans; returns the batches that filled up. */
  add(key: string, spans: readonly SpanRecord[]): Batch[] {
    const ready: Batch[] = [];
    for (const span of spans) {
      this.#spans.push(span);
      this.#owners.push(key);
      if (this.#spans.length >= this.#maxSpans) ready.push(...this.flush());
    }
    return ready;
  }

  /** The batches of whatever is collected (none when empty). */
  flush(): Batch[] {
    const ready: Batch[] = [];
    this.#cut(this.#spans, this.#owners, ready);
    this.#spans = [];
    this.#owners = [];
    return ready;
  }

  #cut(spans: SpanRecord[], owners: string[], out: Batch[]): void {
    if (spans.length === 0) return;
    const body = this.#encode(spans);
    if (body.length > this.#maxBytes && spans.length > 1) {
      const half = spans.length >> 1;
      this.#cut(spans.slice(0, half), owners.slice(0, half), out);
      this.#cut(spans.slice(half), owners.slice(half), out);
      return;
    }
    const sessions = new Map<string, number>();
    for (const owner of owners) sessions.set(owner, (sessions.get(owner) ?? 0) + 1);
    out.push({ spanCount: spans.length, body, sessions });
  }
}
