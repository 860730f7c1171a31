/**
 * `show`'s branch as a stream, for sessions of any size: one light pass for the tree (linking
 * fields only), then the branch's entries parsed a few megabytes at a time, root to leaf. The
 * same entries as `sessionTranscript` without a page, never the whole file in memory.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { SessionTree } from "../core/tree/session-tree.ts";
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
  /** The tree (labels, name); its entries carry only their linking fields. */
  tree: SessionTree;
  title: string;
  /** The branch's entries that the filter keeps, root to leaf, as stored. Read once. */
  entries: AsyncIterable<SessionEntry>;
  /** Reports lines that were skipped (as `sessionTranscript` does); call after reading `entries`. */
  finish(): void;
}

/**
 * Opens the branch of `options.ref` ending at `options.leaf` (default: the last entry). A
 * branch cut short (its root's parent missing or a cycle) is reported as a notice here.
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
  const { tree } = source;
  const leafId = options.leaf !== undefined ? resolveEntryRef(tree, options.leaf, path) : tree.leafId;
  const walk = tree.walk(leafId);
  if (walk.stop) {
    const why = walk.stop.kind === "cycle" ? "leads back into a parent cycle" : "is not in the file";
    env.report.notice(`the branch starts at "${walk.stop.entryId}": its parent "${walk.stop.parentId}" ${why}`);
  }
  async function* entries(): AsyncIterable<SessionEntry> {
    for await (const entry of source.inOrder(walk.path)) {
      if (passesFilter(entry, filter, tree.labels.has(entry.id))) yield entry;
    }
  }
  return {
    path,
    leafId,
    tree,
    title: `Session ${tree.sessionName ?? source.header.id}`,
    entries: entries(),
    finish: () => void reportSkipped(env, path, source.issues),
  };
}
