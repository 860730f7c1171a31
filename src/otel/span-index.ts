/**
 * What mapping a session to spans needs to know of all its entries before the first span: each
 * entry's id and time, the entry making each tool call, and what the root span tells (entry and
 * message counts, the name, the last time). Small beside the entries themselves, so that a long
 * session can be indexed in one read and mapped in a second without holding its entries
 * (session-export.ts); plain data, so that it can be made in a worker thread and handed over.
 * The ids are held in typed arrays (string-table.ts), not as strings in maps: the 1.2 GB bench
 * session's index was about 20 MB so, held through its second read.
 * @module
 */
import type { AssistantMessage, SessionEntry, SessionHeader } from "../core/format/types.ts";
import { keyAt, type StringTable, StringTableBuilder, valueOf } from "./string-table.ts";

export interface SpanIndex {
  /** How many entries the session has. */
  entries: number;
  /** Each string id -> the index of the last entry holding it. */
  ids: StringTable;
  /** Each entry's key in `ids` (-1: its id is not a string, see `oddIds`). */
  idKeys: Int32Array;
  /** The id of each entry whose id is not a string (rare), by index. */
  oddIds: Map<number, unknown>;
  /** Each entry's time in milliseconds (NaN when it has none). */
  times: Float64Array;
  /** Tool call id -> index of the assistant entry that made the call (the last one). */
  callers: StringTable;
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

/** Entry `i`'s id as written. */
export function idAt(index: SpanIndex, i: number): unknown {
  const k = index.idKeys[i];
  return k < 0 ? index.oddIds.get(i) : keyAt(index.ids, k);
}

/** The index of the last entry whose id is `id`, or undefined. */
export function entryOf(index: SpanIndex, id: string): number | undefined {
  return valueOf(index.ids, id);
}

/** The index of the assistant entry that made tool call `callId` (the last one), or undefined. */
export function callerOf(index: SpanIndex, callId: string): number | undefined {
  return valueOf(index.callers, callId);
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
  #ids = new StringTableBuilder();
  #idKeys = new Int32Array(256);
  #oddIds = new Map<number, unknown>();
  #callers = new StringTableBuilder();
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
      const keys = new Int32Array(i * 2);
      keys.set(this.#idKeys);
      this.#idKeys = keys;
    }
    const ms = this.#times[i] = msOf(entry.timestamp);
    if (Number.isFinite(ms) && !(ms <= this.#last)) this.#last = ms;
    if (typeof entry.id === "string") this.#idKeys[i] = this.#ids.set(entry.id, i);
    else {
      this.#idKeys[i] = -1;
      this.#oddIds.set(i, entry.id);
    }
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
      ids: this.#ids.done(),
      idKeys: this.#idKeys.slice(0, this.#count),
      oddIds: this.#oddIds,
      times: this.#times.slice(0, this.#count),
      callers: this.#callers.done(),
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
