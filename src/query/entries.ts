/**
 * A session's entries in file order, a page at a time (`after` an entry, at most `limit`), so
 * that a surface never has to send a 90 MB session at once.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { QueryEnv } from "./env.ts";
import { checkLimit } from "./list.ts";
import { loadSession } from "./load.ts";
import { resolveEntryRef } from "./resolve/entry-ref.ts";
import { reportSkipped } from "./skipped-note.ts";

export interface EntriesOptions {
  /** A session reference: path, id, unique id prefix, or `@`. */
  ref: string;
  /** Start after this entry (id, unique prefix or `label:NAME`); default from the first. */
  after?: string;
  /** At most this many entries, a whole number above 0 (a string is read as one); default all. */
  limit?: number | string;
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

/** A page of a session's entries. Skipped lines are reported as a warning. */
export async function sessionEntries(env: QueryEnv, options: EntriesOptions): Promise<EntriesResult> {
  const limit = checkLimit(options.limit, "Pass e.g. limit=500");
  const { path, file, tree } = await loadSession(env, options.ref);
  reportSkipped(env, path, file.issues);
  const all = file.entries;
  let start = 0;
  if (options.after !== undefined) {
    const afterId = resolveEntryRef(tree, options.after, path);
    // Ids are unique in a sound file; with duplicates, the page goes on after the last one.
    start = all.findLastIndex((entry) => entry.id === afterId) + 1;
  }
  const entries = all.slice(start, start + limit);
  const end = start + entries.length;
  return {
    value: {
      path,
      id: file.header!.id,
      leafId: tree.leafId,
      entryCount: all.length,
      entries,
      nextAfter: end < all.length && entries.length > 0 ? entries[entries.length - 1].id : null,
    },
  };
}
