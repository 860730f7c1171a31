/**
 * A listing record as one flat row: what `list` prints of a session, kept by the SQLite store
 * beside the record, so that a listing is read in its sort order a batch at a time, without
 * loading (and parsing) every record first.
 * @module
 */
import { digestInfo, type listingDigest } from "../core/digest/listing-digest.ts";
import type { ListingState } from "../core/info/session-info.ts";
import { type CatalogRecord, type RecordStamp, recordState, type SectionKey } from "./store.ts";
import { recordProblem } from "./stored-state.ts";

/** The section listing rows are made from (`listingDigest`'s name). */
export const LIST_ROW_SECTION: typeof listingDigest.name = "listing";

/**
 * One listed file. `id` is null for a file that is not a session (never listed; its row keeps
 * its stamp, so that it is not read again). Times are milliseconds, null for an invalid date.
 */
export interface ListRow {
  path: string;
  size: number;
  mtimeMs: number;
  id: string | null;
  cwd: string;
  name: string | null;
  parent: string | null;
  created: number | null;
  modified: number | null;
  messages: number;
  first: string;
  /** Why line 1, a session header, cannot be used (`DigestState.badHeader`), else null. */
  badHeader: string | null;
  /**
   * True when the row cannot stand for the record in an ordered read: a value that is not of
   * the usual type, a date that is not one, text SQLite would not keep as it is (a lone
   * surrogate), or a path or id that SQLite and JavaScript would sort apart (a character from
   * U+D800 on). A listing that holds one is made from the records instead.
   */
  odd: boolean;
}

const LONE_SURROGATE = /\p{Cs}/u;
/** Characters whose UTF-8 order (SQLite's) differs from their UTF-16 order (JavaScript's) or that pair up. */
const HIGH = /[\ud800-\uffff]/;

/** A string that SQLite keeps and gives back as it is. */
function keeps(text: unknown): boolean {
  return typeof text === "string" && !LONE_SURROGATE.test(text);
}

/** The row of one listing record (of `path`). */
export function listRow(record: CatalogRecord<ListingState>): ListRow {
  const { path, size, mtimeMs } = record;
  const state = recordState(record);
  const info = digestInfo(path, state, mtimeMs);
  const badHeader = typeof state.badHeader === "string" ? state.badHeader : null;
  if (info === null) {
    return { path, size, mtimeMs, id: null, cwd: "", name: null, parent: null, created: null, modified: null, messages: 0, first: "", badHeader, odd: HIGH.test(path) };
  }
  const created = info.created.getTime();
  const modified = info.modified.getTime();
  const odd = HIGH.test(path) || !keeps(info.id) || HIGH.test(info.id) || !keeps(info.cwd) || !keeps(info.firstMessage) ||
    (info.name !== undefined && !keeps(info.name)) || (info.parentSessionPath !== undefined && !keeps(info.parentSessionPath)) ||
    Number.isNaN(modified) || !Number.isSafeInteger(info.messageCount) || info.messageCount < 0;
  return {
    path,
    size,
    mtimeMs,
    id: typeof info.id === "string" ? info.id : null,
    cwd: typeof info.cwd === "string" ? info.cwd : "",
    name: typeof info.name === "string" ? info.name : null,
    parent: typeof info.parentSessionPath === "string" ? info.parentSessionPath : null,
    created: Number.isNaN(created) ? null : created,
    modified: Number.isNaN(modified) ? null : modified,
    messages: Number.isSafeInteger(info.messageCount) ? info.messageCount : 0,
    first: typeof info.firstMessage === "string" ? info.firstMessage : "",
    badHeader,
    odd,
  };
}

/** The row of a record of `section` as a store is given it, or null for one it would not load (`recordProblem`). */
export function soundListRow(section: SectionKey, record: CatalogRecord): ListRow | null {
  if (recordProblem(section, record) !== null) return null;
  try {
    return listRow(record as CatalogRecord<ListingState>);
  } catch {
    return null;
  }
}

/** A listed session as read back in order: what `list` prints of it. */
export interface OrderedRow {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  parent: string | null;
  created: number | null;
  modified: number;
  messages: number;
  first: string;
}

/** A listed session as read by id. */
export type ByIdRow = Omit<OrderedRow, "parent" | "created">;

/** A listed session with its file's size when it was last checked (`du`). */
export type SizedRow = ByIdRow & { size: number };

/** The sessions of one header cwd, and their messages, as `ListRowStore.projects` adds them up. */
export interface ProjectRow {
  cwd: string;
  sessions: number;
  messages: number;
}

/**
 * The sessions of `ListRowStore.ordered` (not `full`) as columns, all read at once: what a table
 * of every session holds. `titles`: the name, else the first message; a cwd shared by many
 * sessions is one string.
 */
export interface OrderedColumns {
  ids: string[];
  cwds: string[];
  titles: string[];
  modified: number[];
  messages: number[];
}

/**
 * The sessions of `ListRowStore.ordered` (not `full`) for a table whose titles are printed as
 * they are (not measured): columns in the store's own order (folder by folder, each by path),
 * `order` their places in the listing's order, and each title (the name, else the first
 * message) as its UTF-8 bytes, never as a string: the `i`th is `titles[chunk[i]]` from `start[i]`
 * to `end[i]`. At 25,000 sessions the titles held as strings were 8.8 MB (three in four are not
 * ASCII: two bytes a character), their bytes are 4.8 MB, and SQLite no longer sorts them. The
 * numbers are typed arrays: no array of boxes grown a push at a time.
 */
export interface TableColumns {
  ids: string[];
  cwds: string[];
  modified: Float64Array;
  messages: Float64Array;
  order: number[];
  titles: Uint8Array[];
  chunk: Int32Array;
  start: Int32Array;
  end: Int32Array;
}

/**
 * The places of rows given folder by folder (`folder[i]`, the folders' order), each folder's by
 * path, in a listing's `order` (`ListRowStore.ordered`'s): newest (or most messages, then newest)
 * first; ties in the folders' order, then by path, last first.
 */
export function listingOrder(order: RowOrder, modified: ArrayLike<number>, messages: ArrayLike<number>, folder: ArrayLike<number>): number[] {
  const places = Array.from({ length: modified.length }, (_, i) => i);
  const byTime = (a: number, b: number) => modified[b] - modified[a] || folder[a] - folder[b] || b - a;
  return places.sort(order === "messages" ? (a, b) => messages[b] - messages[a] || byTime(a, b) : byTime);
}

/** The orders a listing can be read in: newest activity first, or most messages first (then newest). */
export type RowOrder = "modified" | "messages";

/**
 * Where a store keeps listing rows (the SQLite store): made with the records of the listing
 * section (of `version`), read back without loading records. Every method may throw.
 */
export interface ListRowStore {
  /** Makes the rows of records written without them (by an older version, or before rows existed) from the records. */
  sync(section: SectionKey): void;
  /** The stamps of the rows under `dir` (any depth), and whether any is odd (`ListRow.odd`) or has a bad header. */
  stamps(version: number, dir: string): { stamps: Map<string, RecordStamp>; odd: boolean; bad: boolean };
  /** Whether any row under `dir` (any depth) is odd or has a bad header: `stamps` without the stamps (a quick check by coverage). */
  flags?(version: number, dir: string): { odd: boolean; bad: boolean };
  /**
   * The sessions directly in `folders`, in `order`; ties in the folders' order, then by path,
   * last first. Without `full`, no path, parent or created (what a table leaves out).
   */
  ordered(version: number, folders: readonly string[], order: RowOrder, full: boolean): Iterable<OrderedRow>;
  /** The rows of `ordered` (not `full`) as columns, read at once; where absent, a reader holds `ordered`'s rows itself. */
  orderedColumns?(version: number, folders: readonly string[], order: RowOrder): OrderedColumns;
  /**
   * `orderedColumns` with the titles as bytes (`TableColumns`); undefined when the store cannot
   * give them alike. `room`: how many sessions to make room for at first (more are taken).
   */
  tableColumns?(version: number, folders: readonly string[], order: RowOrder, room?: number): TableColumns | undefined;
  /** The sessions directly in `folders`, by id; path and first message only when `wanted` (else ""). */
  byId(version: number, folders: readonly string[], wanted: { path: boolean; first: boolean }): Iterable<ByIdRow>;
  /** The sessions of `byId` whose ids are among `ids` (path and first message ""), in no order, where the store can. */
  withIds?(version: number, folders: readonly string[], ids: readonly string[]): Iterable<ByIdRow>;
  /** The sessions directly in `folders`, in no order, with their files' sizes, where the store can. */
  sized?(version: number, folders: readonly string[]): Iterable<SizedRow>;
  /** The ids of `byId`'s sessions alone, in the same order (a string each, no row object), where the store can. */
  ids?(version: number, folders: readonly string[]): string[];
  /**
   * The sessions directly in `folders` added up by cwd: as many, and as many messages, as
   * `ordered` gives (in no order). Where absent, a reader adds up `ordered`'s rows itself.
   */
  projects?(version: number, folders: readonly string[]): Iterable<ProjectRow>;
  /** Files directly in `folders` whose header cannot be used, and why, in the folders' order. */
  badHeaders(version: number, folders: readonly string[]): [string, string][];
}
