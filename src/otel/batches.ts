/**
 * Requests bounded in spans and in bytes. Each session's spans are encoded on their own, as
 * chunks (a whole `ExportTraceServiceRequest` each, at most a request's worth of spans); a
 * request is then a run of whole chunks joined (see `joinRequests`), so that the encoding can be
 * done where the session was read (a worker thread) and only bytes travel. A request knows which
 * sessions it carries: a session is marked sent once every request holding its spans was accepted.
 * @module
 */
import type { SpanRecord, SpanSink } from "./session-spans.ts";

/** OpenTelemetry's default `maxExportBatchSize`. */
export const MAX_BATCH_SPANS = 512;
/** Encoded request size before gzip: well under the receivers' common 4 MiB default. */
export const MAX_BATCH_BYTES = 3 * 1024 * 1024;

export interface BatchLimits {
  maxSpans?: number;
  maxBytes?: number;
}

/** Some of one session's spans, encoded as a request of their own. */
export interface Chunk {
  spans: number;
  body: Uint8Array;
}

export interface Batch {
  /** How many spans it holds. */
  spanCount: number;
  /** Encoded request (not gzipped). */
  body: Uint8Array;
  /** Keys of the sessions whose spans are in it, and how many spans of each. */
  sessions: Map<string, number>;
}

/**
 * A session's spans as chunks of at most `maxSpans` spans whose encoding is at most `maxBytes`
 * (a chunk over the limit is halved; a single span over it goes alone: the receiver may still
 * take it).
 *
 * @example
 * ```ts
 * encodeChunks(encode, spans, { maxSpans: 512 }); // [{ spans: 512, body }, { spans: 88, body }]
 * ```
 */
export function encodeChunks(encode: (spans: readonly SpanRecord[]) => Uint8Array, spans: readonly SpanRecord[], limits: BatchLimits = {}): Chunk[] {
  const maxSpans = limits.maxSpans ?? MAX_BATCH_SPANS;
  const maxBytes = limits.maxBytes ?? MAX_BATCH_BYTES;
  const out: Chunk[] = [];
  const cut = (part: readonly SpanRecord[]) => {
    const body = encode(part);
    if (body.length > maxBytes && part.length > 1) {
      const half = part.length >> 1;
      cut(part.slice(0, half));
      cut(part.slice(half));
      return;
    }
    out.push({ spans: part.length, body });
  };
  for (let at = 0; at < spans.length; at += maxSpans) cut(spans.slice(at, at + maxSpans));
  return out;
}

/**
 * A session's spans encoded as `emitSessionSpans` gives them, in the chunks `encodeChunks` makes
 * of them all (the root first): a chunk is encoded once it is full, so that a long session holds
 * its encoded chunks and at most a chunk's worth of spans, not all its spans. The first chunk,
 * whose lead is the root span that comes last, is encoded at the end.
 *
 * @example
 * ```ts
 * const chunker = new ChunkEncoder(encode);
 * emitSessionSpans(input, chunker);
 * chunker.chunks; // as encodeChunks(encode, sessionSpans(input))
 * ```
 */
export class ChunkEncoder implements SpanSink {
  readonly #encode: (spans: readonly SpanRecord[]) => Uint8Array;
  readonly #limits: BatchLimits;
  readonly #maxSpans: number;
  /** Spans given and not encoded yet. */
  #pending: SpanRecord[] = [];
  /** Room left in the chunk being filled; the first leaves one for the root when it comes. */
  #room = 0;
  /** The first chunk's spans once it is full, waiting for the root (undefined till then). */
  #lead: SpanRecord[] | undefined;
  /** The chunks encoded so far (all after the first). */
  #rest: Chunk[] = [];
  /** Every chunk, once `end` was called. */
  chunks: Chunk[] = [];
  /** The spans given (with the root). */
  spans = 0;

  constructor(encode: (spans: readonly SpanRecord[]) => Uint8Array, limits: BatchLimits = {}) {
    this.#encode = encode;
    this.#limits = limits;
    this.#maxSpans = limits.maxSpans ?? MAX_BATCH_SPANS;
    this.#room = this.#maxSpans;
  }

  start(rootFirst: boolean): void {
    this.#room = this.#maxSpans - (rootFirst ? 1 : 0);
  }

  add(span: SpanRecord): void {
    this.spans++;
    this.#pending.push(span);
    if (--this.#room > 0) return;
    if (this.#lead === undefined) this.#lead = this.#pending;
    else this.#rest.push(...encodeChunks(this.#encode, this.#pending, this.#limits));
    this.#pending = [];
    this.#room = this.#maxSpans;
  }

  end(root: SpanRecord | undefined): void {
    if (root) this.spans++;
    if (this.#lead === undefined) [this.#lead, this.#pending] = [this.#pending, []];
    const lead = root ? [root, ...this.#lead] : this.#lead;
    this.chunks = [...encodeChunks(this.#encode, lead, this.#limits), ...this.#rest, ...encodeChunks(this.#encode, this.#pending, this.#limits)];
    this.#pending = [];
    this.#lead = undefined;
    this.#rest = [];
  }
}

/**
 * Collects chunks session by session and hands out requests of whole chunks, at most `maxSpans`
 * spans and `maxBytes` bytes each (a chunk over either limit goes alone).
 *
 * @example
 * ```ts
 * const packer = new Packer(joinRequests("http/protobuf"));
 * const ready = packer.add("a.jsonl", chunks); // requests that filled up, if any
 * const last = packer.flush();
 * ```
 */
export class Packer {
  readonly #join: (bodies: Uint8Array[]) => Uint8Array;
  readonly #maxSpans: number;
  readonly #maxBytes: number;
  #bodies: Uint8Array[] = [];
  #sessions = new Map<string, number>();
  #spans = 0;
  #bytes = 0;

  constructor(join: (bodies: Uint8Array[]) => Uint8Array, limits: BatchLimits = {}) {
    this.#join = join;
    this.#maxSpans = limits.maxSpans ?? MAX_BATCH_SPANS;
    this.#maxBytes = limits.maxBytes ?? MAX_BATCH_BYTES;
  }

  /** Adds a session's chunks; returns the requests that filled up. */
  add(key: string, chunks: readonly Chunk[]): Batch[] {
    const ready: Batch[] = [];
    for (const chunk of chunks) {
      if (this.#spans > 0 && (this.#spans + chunk.spans > this.#maxSpans || this.#bytes + chunk.body.length > this.#maxBytes)) ready.push(...this.flush());
      this.#bodies.push(chunk.body);
      this.#sessions.set(key, (this.#sessions.get(key) ?? 0) + chunk.spans);
      this.#spans += chunk.spans;
      this.#bytes += chunk.body.length;
    }
    return ready;
  }

  /** The request of whatever is collected (none when empty). */
  flush(): Batch[] {
    if (this.#spans === 0) return [];
    const batch = { spanCount: this.#spans, body: this.#join(this.#bodies), sessions: this.#sessions };
    this.#bodies = [];
    this.#sessions = new Map();
    this.#spans = this.#bytes = 0;
    return [batch];
  }
}
