/**
 * A session's entries in file order, a page at a time (`after` an entry, at most `limit`), so
 * that a surface never has to send a 90 MB session at once. Through the file's line index, a
 * page reads only the bytes of its own lines.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { QueryEnv } from "./env.ts";
import { checkLimit } from "./list.ts";
import { indexedSessionAt, loadSessionAt } from "./load.ts";
import { resolveEntryRef } from "./resolve/entry-ref.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import type { SessionView } from "./session-index.ts";
import { reportSkipped } from "./skipped-note.ts";

export interface EntriesOptions {
  /** A session reference: path, id, unique id prefix, or `@`. */
  ref: string;
  /** Start after this entry (id, unique prefix or `label:NAME`); default from the first. */
  after?: string;
  /** At most this many entries, a whole number above 0 (a string is read as one); default all. */
  limit?: number | string;
  /**
   * End the page early once its entries' lines hold this many bytes (it still holds at least one
   * entry): a page of 26 KB tool outputs then stays a few megabytes, whatever `limit` says.
   * Default: no such bound.
   */
  maxBytes?: number;
}

/** One page of entries. */
export interface EntriesJson {
  path: string;
  /** The session id (the header's). */
  id: string;
  /** The active leaf (the last entry), as `tree` and `show` have it. */
  leafId: string | null;
  /** How many entries the session has in all. */
  entryCount: number;
  /** The entries of this page, as stored (migrated to the current version), in file order. */
  entries: SessionEntry[];
  /** The id to pass as `after` for the next page; null on the last page. */
  nextAfter: string | null;
}

export interface EntriesResult {
  value: EntriesJson;
}

/** Where a page starts in a list of entries: after the last entry with the id `after` names. */
function pageStart(all: readonly SessionEntry[], afterId: string | undefined): number {
  // Ids are unique in a sound file; with duplicates, the page goes on after the last one.
  return afterId === undefined ? 0 : all.findLastIndex((entry) => entry.id === afterId) + 1;
}

/** How many of `sizes` (from the first) fit in `maxBytes`: at least one. */
function fitting(sizes: Iterable<number>, maxBytes: number | undefined): number {
  if (maxBytes === undefined) return Infinity;
  let n = 0;
  let bytes = 0;
  for (const size of sizes) {
    bytes += size;
    if (n > 0 && bytes > maxBytes) break;
    n++;
  }
  return n;
}

function page(path: string, id: string, leafId: string | null, count: number, start: number, entries: SessionEntry[]): EntriesJson {
  const end = start + entries.length;
  return { path, id, leafId, entryCount: count, entries, nextAfter: end < count && entries.length > 0 ? entries[entries.length - 1].id : null };
}

/** A page of a session's entries. Skipped lines are reported as a warning. */
export async function sessionEntries(env: QueryEnv, options: EntriesOptions): Promise<EntriesResult> {
  const limit = checkLimit(options.limit, "Pass e.g. limit=500");
  const path = await resolveSessionRef(env, options.ref);
  const view = await indexedSessionAt(env, path);
  if (view) {
    const { index, tree, entries: all, tailEntry } = view;
    reportSkipped(env, path, view.issues);
    const start = pageStart(all, options.after === undefined ? undefined : resolveEntryRef(tree, options.after, path));
    let end = Math.min(all.length, start + limit);
    end = start + Math.min(end - start, fitting(lineSizes(view, start, end), options.maxBytes));
    const indexed = Math.min(end, all.length - (tailEntry ? 1 : 0));
    const entries = await index.read(env.fs, start, indexed);
    if (tailEntry && end === all.length && end > start) entries.push(tailEntry);
    // A line that no longer reads as indexed: the file changed under the read; read it whole.
    if (!entries.includes(undefined)) {
      return { value: page(path, index.header!.id, tree.leafId, all.length, start, entries as SessionEntry[]) };
    }
  }
  const { file, tree } = await loadSessionAt(env, path);
  if (!view) reportSkipped(env, path, file.issues);
  const start = pageStart(file.entries, options.after === undefined ? undefined : resolveEntryRef(tree, options.after, path));
  const slice = file.entries.slice(start, start + limit);
  const sizes = options.maxBytes === undefined ? [] : slice.map((entry) => JSON.stringify(entry).length);
  return { value: page(path, file.header!.id, tree.leafId, file.entries.length, start, slice.slice(0, fitting(sizes, options.maxBytes))) };
}

/** The line lengths of the entries at `start` to `end` (the tail's from its JSON). */
function* lineSizes(view: SessionView, start: number, end: number): Iterable<number> {
  const indexed = view.entries.length - (view.tailEntry ? 1 : 0);
  for (let i = start; i < end; i++) yield i < indexed ? view.index.lengths[i] : JSON.stringify(view.tailEntry).length;
}
