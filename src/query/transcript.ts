/**
 * `show`: the transcript of one branch, root to leaf: the entries on it that a filter keeps, as
 * they are stored. Text and Markdown views render these (src/render/transcript*.ts).
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { SessionTree } from "../core/tree/session-tree.ts";
import { passesFilter, type TreeFilter } from "../render/tree-rows.ts";
import type { QueryEnv } from "./env.ts";
import { loadSession } from "./load.ts";
import { resolveEntryRef } from "./resolve/entry-ref.ts";
import { reportSkipped } from "./skipped-note.ts";
import { checkTreeFilter } from "./tree.ts";

export interface TranscriptOptions {
  /** A session reference: path, id, unique id prefix, or `@`. */
  ref: string;
  /** End the branch here: id, unique prefix or `label:NAME` (default: the last entry). */
  leaf?: string;
  /** Which entries to keep, as in `tree` (default `all`). */
  filter?: TreeFilter;
}

/** What `show --json` (`--format json`) prints, without `schemaVersion`. */
export interface TranscriptJson {
  path: string;
  leafId: string | null;
  entries: SessionEntry[];
}

export interface TranscriptResult {
  value: TranscriptJson;
  /** For the views: the tree (labels), and the title `Session <name or id>`. */
  tree: SessionTree;
  title: string;
}

/**
 * One branch of a session. Skipped lines are reported as a warning; a branch cut short (its
 * root's parent missing or a cycle) as a notice.
 */
export async function sessionTranscript(env: QueryEnv, options: TranscriptOptions): Promise<TranscriptResult> {
  const filter = checkTreeFilter(options.filter, "all");
  const { path, file, tree } = await loadSession(env, options.ref);
  reportSkipped(env, path, file.issues);
  const leafId = options.leaf !== undefined ? resolveEntryRef(tree, options.leaf, path) : tree.leafId;
  const walk = tree.walk(leafId);
  if (walk.stop) {
    const why = walk.stop.kind === "cycle" ? "leads back into a parent cycle" : "is not in the file";
    env.report.notice(`the branch starts at "${walk.stop.entryId}": its parent "${walk.stop.parentId}" ${why}`);
  }
  const entries = walk.path.filter((entry) => passesFilter(entry, filter, tree.labels.has(entry.id)));
  return { value: { path, leafId, entries }, tree, title: `Session ${tree.sessionName ?? file.header!.id}` };
}
