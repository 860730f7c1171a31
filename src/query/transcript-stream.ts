/**
 * `show`'s branch as a stream, for sessions of any size: one light pass for the tree (linking
 * fields only), then the branch's entries parsed a few megabytes at a time, root to leaf. The
 * same entries as `sessionTranscript` without a page, never the whole file in memory.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { openExportSource } from "../export/export-source.ts";
import { passesFilter, type TreeFilter } from "../render/tree-rows.ts";
import type { QueryEnv } from "./env.ts";
import { resolveEntryRef } from "./resolve/entry-ref.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { reportSkipped } from "./skipped-note.ts";
import { checkTreeFilter } from "./tree.ts";

export interface StreamedTranscript {
  path: string;
  leafId: string | null;
  /** The session's labels by entry id. */
  labels: ReadonlyMap<string, { label: string }>;
  title: string;
  /** The branch's entries that the filter keeps, root to leaf, as stored. Read once. */
  entries: AsyncIterable<SessionEntry>;
  /** Reports lines that were skipped (as `sessionTranscript` does); call after reading `entries`. */
  finish(): void;
}

async function* kept(entries: AsyncIterable<SessionEntry>, filter: TreeFilter, labels: ReadonlyMap<string, unknown>): AsyncIterable<SessionEntry> {
  for await (const entry of entries) if (passesFilter(entry, filter, labels.has(entry.id))) yield entry;
}

/**
 * Opens the branch of `options.ref` ending at `options.leaf` (default: the last entry). A
 * branch cut short (its root's parent missing or a cycle) is reported as a notice here. What is
 * returned holds the places of the branch's lines, not the light pass nor the tree, so the
 * memory of the read that follows stays small.
 *
 * @example
 * ```ts
 * // const t = await streamTranscript(env, { ref: "@" });
 * // for await (const entry of t.entries) …; t.finish();
 * ```
 */
export async function streamTranscript(env: QueryEnv, options: { ref: string; leaf?: string; filter?: TreeFilter }): Promise<StreamedTranscript> {
  const filter = checkTreeFilter(options.filter, "all");
  const path = await resolveSessionRef(env, options.ref);
  const source = await openExportSource(env.fs, path);
  const { tree, issues } = source;
  const leafId = options.leaf !== undefined ? resolveEntryRef(tree, options.leaf, path) : tree.leafId;
  const walk = tree.walk(leafId);
  if (walk.stop) {
    const why = walk.stop.kind === "cycle" ? "leads back into a parent cycle" : "is not in the file";
    env.report.notice(`the branch starts at "${walk.stop.entryId}": its parent "${walk.stop.parentId}" ${why}`);
  }
  const labels = tree.labels;
  return {
    path,
    leafId,
    labels,
    title: `Session ${tree.sessionName ?? source.header.id}`,
    entries: kept(source.inOrder(walk.path), filter, labels),
    finish: () => void reportSkipped(env, path, issues),
  };
}
