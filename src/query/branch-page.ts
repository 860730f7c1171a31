/**
 * The first page of one branch, cheaply, for a surface that shows a session while the rest
 * loads: the file's quick line index (kept by a server, and extended as the file grows), the
 * branch's ids root to leaf, and only the first `limit` of its entries read and parsed. A 90 MB
 * session answers in a fraction of what loading it whole costs. An older file gets one light
 * pass (linking fields only, as the export streams it) instead.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { openExportSource } from "../export/export-source.ts";
import type { QueryEnv } from "./env.ts";
import { checkLimit } from "./list.ts";
import { resolveEntryRef } from "./resolve/entry-ref.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { indexedSessionAt } from "./load.ts";
import type { SessionView } from "./session-index.ts";

export interface BranchPageOptions {
  /** A session reference: path, id, unique id prefix, or `@`. */
  ref: string;
  /** End the branch here: id, unique prefix or `label:NAME` (default: the last entry). */
  leaf?: string;
  /** Start the page at this entry of the branch (id, unique prefix or `label:NAME`); default its root. */
  from?: string;
  /** How many of the branch's entries to give in full, from `from` on (default 200). */
  limit?: number | string;
}

export interface BranchPage {
  path: string;
  /** The header's session id. */
  id: string;
  /** The session's name, if it has one. */
  name: string | null;
  leafId: string | null;
  /** Every entry id of the branch, root to leaf (in file order too). */
  branch: string[];
  /** Where in `branch` the page starts: 0, or the index of `from` when it is on the branch. */
  start: number;
  /** `limit` entries of the branch from `start` on, as stored. */
  entries: SessionEntry[];
  /** Bytes of the file. */
  size: number;
}

/** The branch to `leaf` (or the last entry) and its first entries, or those from `from` on. */
export async function branchPage(env: QueryEnv, options: BranchPageOptions): Promise<BranchPage> {
  const limit = checkLimit(options.limit ?? 200, "Pass e.g. limit=200");
  const path = await resolveSessionRef(env, options.ref);
  // A quick index: the branch as the export's light pass finds it, at a third of an exact one's cost.
  const view = await indexedSessionAt(env, path, false);
  const indexed = view ? await fromIndex(env, path, view, options, limit) : null;
  if (indexed) return indexed;
  const source = await openExportSource(env.fs, path);
  const tree = source.tree;
  const leafId = options.leaf !== undefined ? resolveEntryRef(tree, options.leaf, path) : tree.leafId;
  const branch = tree.getPath(leafId);
  // An entry off the branch starts nothing: the page starts at the root.
  const fromId = options.from !== undefined ? resolveEntryRef(tree, options.from, path) : undefined;
  const start = Math.max(0, branch.findIndex((e) => e.id === fromId));
  const entries: SessionEntry[] = [];
  for await (const entry of source.entries(new Set(branch.slice(start, start + limit)))) entries.push(entry);
  return {
    path,
    id: source.header.id,
    name: tree.sessionName ?? null,
    leafId,
    branch: branch.map((e) => e.id),
    start,
    entries,
    size: (await env.fs.stat(path))?.size ?? 0,
  };
}

/** The page from the file's line index; null when a line no longer reads as indexed (the file changed). */
async function fromIndex(env: QueryEnv, path: string, view: SessionView, options: BranchPageOptions, limit: number): Promise<BranchPage | null> {
  const { tree, index, tailEntry } = view;
  const leafId = options.leaf !== undefined ? resolveEntryRef(tree, options.leaf, path) : tree.leafId;
  const branch = tree.getPath(leafId);
  const fromId = options.from !== undefined ? resolveEntryRef(tree, options.from, path) : undefined;
  const start = Math.max(0, branch.findIndex((e) => e.id === fromId));
  const wanted = new Set<SessionEntry>(branch.slice(start, start + limit));
  const positions: number[] = [];
  tree.entries.forEach((entry, i) => {
    if (wanted.has(entry) && entry !== tailEntry) positions.push(i);
  });
  const entries = await index.readAt(env.fs, positions);
  if (tailEntry && wanted.has(tailEntry)) entries.push(tailEntry);
  if (entries.includes(undefined)) return null;
  return {
    path,
    id: index.header!.id,
    name: tree.sessionName ?? null,
    leafId,
    branch: branch.map((e) => e.id),
    start,
    entries: entries as SessionEntry[],
    size: index.size,
  };
}
