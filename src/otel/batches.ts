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
  /** Its chunks' encoded requests, one request once joined (`joinRequests`), not gzipped. */
  parts: Uint8Array[];
  /** Their bytes in all. */
  bytes: number;
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
 * at most a chunk's worth of spans, not all its spans. With `onChunk`, each chunk is handed to it
 * as soon as every chunk before it was, and none is kept: when the root is known from the start
 * (see `SpanSink`), as it is made; else the first chunk, whose lead is the root that comes last,
 * waits for it, and the others with it. Without, they are all in `chunks` after `end`.
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
  readonly #onChunk: ((chunk: Chunk) => void) | undefined;
  /** Spans given and not encoded yet. */
  #pending: SpanRecord[] = [];
  /** Room left in the chunk being filled; the first leaves one for the root when it comes. */
  #room = 0;
  /** True while the first chunk waits for the root, which comes last. */
  #waiting = false;
  /** The first chunk's spans once it is full, while it waits for the root (undefined till then). */
  #lead: SpanRecord[] | undefined;
  /** The chunks encoded and not handed out yet. */
  #rest: Chunk[] = [];
  /** Every chunk, once `end` was called (none with `onChunk`). */
  chunks: Chunk[] = [];
  /** The spans given (with the root). */
  spans = 0;

  constructor(encode: (spans: readonly SpanRecord[]) => Uint8Array, limits: BatchLimits = {}, onChunk?: (chunk: Chunk) => void) {
    this.#encode = encode;
    this.#limits = limits;
    this.#maxSpans = limits.maxSpans ?? MAX_BATCH_SPANS;
    this.#room = this.#maxSpans;
    this.#onChunk = onChunk;
  }

  start(rootFirst: boolean, root?: SpanRecord): void {
    this.#room = this.#maxSpans - (rootFirst ? 1 : 0);
    this.#waiting = rootFirst && !root;
    if (root) {
      this.spans++;
      this.#pending.push(root);
    }
  }

  add(span: SpanRecord): void {
    this.spans++;
    this.#pending.push(span);
    if (--this.#room > 0) return;
    if (this.#waiting && this.#lead === undefined) this.#lead = this.#pending;
    else this.#out(encodeChunks(this.#encode, this.#pending, this.#limits));
    this.#pending = [];
    this.#room = this.#maxSpans;
  }

  end(root: SpanRecord | undefined): void {
    let first: Chunk[] = [];
    if (this.#waiting) {
      if (root) this.spans++;
      if (this.#lead === undefined) [this.#lead, this.#pending] = [this.#pending, []];
      first = encodeChunks(this.#encode, root ? [root, ...this.#lead] : this.#lead, this.#limits);
      this.#waiting = false;
    }
    const chunks = [...first, ...this.#rest, ...encodeChunks(this.#encode, this.#pending, this.#limits)];
    this.#pending = [];
    this.#lead = undefined;
    this.#rest = [];
    if (this.#onChunk) for (const chunk of chunks) this.#onChunk(chunk);
    else this.chunks = chunks;
  }

  /** Chunks encoded: handed out, or kept till the end. */
  #out(chunks: Chunk[]): void {
    if (this.#onChunk && !this.#waiting) for (const chunk of chunks) this.#onChunk(chunk);
    else this.#rest.push(...chunks);
  }
}

/**
 * Collects chunks session by session and hands out requests of whole chunks, at most `maxSpans`
 * spans and `maxBytes` bytes each (a chunk over either limit goes alone). The chunks of a
 * request are joined only when it is sent (`joinRequests`), so that one buffer serves them all.
 *
 * @example
 * ```ts
 * const packer = new Packer();
 * const ready = packer.add("a.jsonl", chunks); // requests that filled up, if any
 * const last = packer.flush();
 * ```
 */
export class Packer {
  readonly #maxSpans: number;
  readonly #maxBytes: number;
  #bodies: Uint8Array[] = [];
  #sessions = new Map<string, number>();
  #spans = 0;
  #bytes = 0;

  constructor(limits: BatchLimits = {}) {
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
    const batch = { spanCount: this.#spans, parts: this.#bodies, bytes: this.#bytes, sessions: this.#sessions };
    this.#bodies = [];
    this.#sessions = new Map();
    this.#spans = this.#bytes = 0;
    return [batch];
  }
}
