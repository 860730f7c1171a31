/**
 * What mapping a session to spans needs to know of all its entries before the first span: each
 * entry's id and time, the entry making each tool call, and what the root span tells (entry and
 * message counts, the name, the last time). Small beside the entries themselves, so that a long
 * session can be indexed in one read and mapped in a second without holding its entries
 * (session-export.ts); plain data, so that it can be made in a worker thread and handed over.
 * @module
 */
import type { AssistantMessage, SessionEntry, SessionHeader } from "../core/format/types.ts";

export interface SpanIndex {
  /** How many entries the session has. */
  entries: number;
  /** Each entry's id as written, by index. */
  ids: unknown[];
  /** Each entry's index by id (the last one holding it). */
  byId: Map<string, number>;
  /** Each entry's time in milliseconds (NaN when it has none). */
  times: Float64Array;
  /** Tool call id -> index of the assistant entry that made the call (the last one). */
  callers: Map<string, number>;
  /** The session's name (its last `session_info`'s). */
  name: string | undefined;
  /** Message entries. */
  messages: number;
  /** The header's time in milliseconds (NaN when it has none). */
  created: number;
  /** The latest time of the header and the entries (NaN when none has one). */
  last: number;
}

/** An ISO timestamp (or epoch milliseconds) as milliseconds; NaN when neither. */
export function msOf(value: unknown): number {
  if (typeof value === "number") return value;
  return typeof value === "string" ? Date.parse(value) : NaN;
}

/**
 * Builds a `SpanIndex` entry by entry, in file order.
 *
 * @example
 * ```ts
 * const indexer = new SpanIndexer();
 * for (const entry of entries) indexer.add(entry);
 * const index = indexer.done(header);
 * ```
 */
export class SpanIndexer {
  #times = new Float64Array(256);
  #count = 0;
  #ids: unknown[] = [];
  #byId = new Map<string, number>();
  #callers = new Map<string, number>();
  #name: string | undefined;
  #messages = 0;
  /** The latest entry time so far (NaN before the first). */
  #last = NaN;

  add(entry: SessionEntry): void {
    const i = this.#count++;
    if (i === this.#times.length) {
      const times = new Float64Array(i * 2);
      times.set(this.#times);
      this.#times = times;
    }
    const ms = this.#times[i] = msOf(entry.timestamp);
    if (Number.isFinite(ms) && !(ms <= this.#last)) this.#last = ms;
    this.#ids.push(entry.id);
    if (typeof entry.id === "string") this.#byId.set(entry.id, i);
    if (entry.type === "session_info") this.#name = typeof (entry as { name?: unknown }).name === "string" ? (entry as { name: string }).name : undefined;
    if (entry.type !== "message") return;
    this.#messages++;
    const message = (entry as { message: AssistantMessage }).message;
    if (message?.role !== "assistant" || !Array.isArray(message.content)) return;
    for (const block of message.content) if (block?.type === "toolCall" && typeof block.id === "string") this.#callers.set(block.id, i);
  }

  /** The index of the entries given, under `header`. */
  done(header: SessionHeader): SpanIndex {
    const created = msOf(header.timestamp);
    const last = Number.isFinite(created) && !(this.#last > created) ? created : this.#last;
    return {
      entries: this.#count,
      ids: this.#ids,
      byId: this.#byId,
      times: this.#times.slice(0, this.#count),
      callers: this.#callers,
      name: this.#name,
      messages: this.#messages,
      created,
      last,
    };
  }
}

/** The index of a session's entries, all at hand. */
export function indexEntries(header: SessionHeader, entries: readonly SessionEntry[]): SpanIndex {
  const indexer = new SpanIndexer();
  for (const entry of entries) indexer.add(entry);
  return indexer.done(header);
}
