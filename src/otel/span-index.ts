/**
 * What mapping a session to spans needs to know of all its entries before the first span: each
 * entry's id and time, the entry making each tool call, and what the root span tells (entry and
 * message counts, the name, the last time). Small beside the entries themselves, so that a long
 * session can be indexed in one read and mapped in a second without holding its entries
 * (session-export.ts); plain data, so that it can be made in a worker thread and handed over.
 * The ids of such a session are held in typed arrays (string-table.ts), not as strings in maps:
 * the 1.2 GB bench session's index was about 20 MB so, held through its second read. A session
 * held whole (all but the long ones) is indexed with `Map`s over its entries' own strings
 * instead: nothing copied, and less CPU (see `indexEntries`).
 * @module
 */
import type { AssistantMessage, SessionEntry, SessionHeader } from "../core/format/types.ts";
import { keyAt, type StringTable, StringTableBuilder, valueOf } from "./string-table.ts";

/** What the index of any session holds besides its ids. */
interface IndexFacts {
  /** How many entries the session has. */
  entries: number;
  /** Each entry's time in milliseconds (NaN when it has none). */
  times: Float64Array;
  /** The session's name (its last `session_info`'s). */
  name: string | undefined;
  /** Message entries. */
  messages: number;
  /** The header's time in milliseconds (NaN when it has none). */
  created: number;
  /** The latest time of the header and the entries (NaN when none has one). */
  last: number;
}

/** The index of a long session, made on its first read and held through its second (plain data). */
export interface TableIndex extends IndexFacts {
  /** Each string id -> the index of the last entry holding it. */
  ids: StringTable;
  /** Each entry's key in `ids` (-1: its id is not a string, see `oddIds`). */
  idKeys: Int32Array;
  /** The id of each entry whose id is not a string (rare), by index. */
  oddIds: Map<number, unknown>;
  /** Tool call id -> index of the assistant entry that made the call (the last one). */
  callers: StringTable;
  held?: undefined;
}

/** The index of a session held whole: its ids and tool call ids in `Map`s, over its entries. */
export interface HeldIndex extends IndexFacts {
  ids: Map<string, number>;
  callers: Map<string, number>;
  /** The entries, whose ids they are. */
  held: readonly SessionEntry[];
}

export type SpanIndex = TableIndex | HeldIndex;

/** An ISO timestamp (or epoch milliseconds) as milliseconds; NaN when neither. */
export function msOf(value: unknown): number {
  if (typeof value === "number") return value;
  return typeof value === "string" ? Date.parse(value) : NaN;
}

/** Entry `i`'s id as written. */
export function idAt(index: SpanIndex, i: number): unknown {
  if (index.held) return index.held[i].id;
  const k = index.idKeys[i];
  return k < 0 ? index.oddIds.get(i) : keyAt(index.ids, k);
}

/** The index of the last entry whose id is `id`, or undefined. */
export function entryOf(index: SpanIndex, id: string): number | undefined {
  return index.held ? index.ids.get(id) : valueOf(index.ids, id);
}

/** The index of the assistant entry that made tool call `callId` (the last one), or undefined. */
export function callerOf(index: SpanIndex, callId: string): number | undefined {
  return index.held ? index.callers.get(callId) : valueOf(index.callers, callId);
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
  #facts = new EntryFacts();

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
    this.#times[i] = this.#facts.time(entry);
    if (typeof entry.id === "string") this.#idKeys[i] = this.#ids.set(entry.id, i);
    else {
      this.#idKeys[i] = -1;
      this.#oddIds.set(i, entry.id);
    }
    const calls = this.#facts.calls(entry);
    if (calls) for (const block of calls) if (block?.type === "toolCall" && typeof block.id === "string") this.#callers.set(block.id, i);
  }

  /** The index of the entries given, under `header`. */
  done(header: SessionHeader): TableIndex {
    return {
      entries: this.#count,
      ids: this.#ids.done(),
      idKeys: this.#idKeys.slice(0, this.#count),
      oddIds: this.#oddIds,
      times: this.#times.slice(0, this.#count),
      callers: this.#callers.done(),
      ...this.#facts.done(header),
    };
  }
}

/** What the root span tells, gathered entry by entry: the name, the message count, the times. */
class EntryFacts {
  #name: string | undefined;
  #messages = 0;
  /** The latest entry time so far (NaN before the first). */
  #last = NaN;

  /** The entry's time in milliseconds (NaN when none), counted. */
  time(entry: SessionEntry): number {
    const ms = msOf(entry.timestamp);
    if (Number.isFinite(ms) && !(ms <= this.#last)) this.#last = ms;
    if (entry.type === "session_info") this.#name = typeof (entry as { name?: unknown }).name === "string" ? (entry as { name: string }).name : undefined;
    if (entry.type === "message") this.#messages++;
    return ms;
  }

  /** The content blocks of an assistant message (where its tool calls are), else undefined. */
  calls(entry: SessionEntry): readonly { type?: unknown; id?: unknown }[] | undefined {
    if (entry.type !== "message") return undefined;
    const message = (entry as { message: AssistantMessage }).message;
    return message?.role === "assistant" && Array.isArray(message.content) ? message.content as { type?: unknown; id?: unknown }[] : undefined;
  }

  done(header: SessionHeader): Pick<SpanIndex, "name" | "messages" | "created" | "last"> {
    const created = msOf(header.timestamp);
    const last = Number.isFinite(created) && !(this.#last > created) ? created : this.#last;
    return { name: this.#name, messages: this.#messages, created, last };
  }
}

/**
 * The index of a session's entries, all at hand: its ids and tool calls in `Map`s over the
 * entries' own strings, not in tables (two a session, each of new typed arrays, its strings
 * copied and hashed in JavaScript): the worker's work of `otel --all` on the bench's 2,400
 * sessions, run on one thread under Bun, took 1,690 ms of CPU against 1,850 (medians of 8
 * interleaved runs, by hand, under load).
 */
export function indexEntries(header: SessionHeader, entries: readonly SessionEntry[]): HeldIndex {
  const facts = new EntryFacts();
  const times = new Float64Array(entries.length);
  const ids = new Map<string, number>();
  const callers = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    times[i] = facts.time(entry);
    if (typeof entry.id === "string") ids.set(entry.id, i);
    const calls = facts.calls(entry);
    if (calls) for (const block of calls) if (block?.type === "toolCall" && typeof block.id === "string") callers.set(block.id, i);
  }
  return { entries: entries.length, ids, held: entries, times, callers, ...facts.done(header) };
}
