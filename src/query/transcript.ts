/**
 * `show`: the transcript of one branch, root to leaf: the entries on it that a filter keeps, as
 * they are stored. Text and Markdown views render these (src/render/transcript*.ts).
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { SessionTree } from "../core/tree/session-tree.ts";
import { passesFilter, type TreeFilter } from "../render/tree-rows.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { checkLimit } from "./list.ts";
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
  /**
   * Page: only the entries of the branch after this one (id, unique prefix or `label:NAME`). An
   * entry that is not on the branch is a QueryError `not-on-branch` (exit 2): the branch changed.
   */
  after?: string;
  /** Page: at most this many entries, a whole number above 0 (a string is read as one); default all. */
  limit?: number | string;
}

/** What `show --json` (`--format json`) prints, without `schemaVersion`. */
export interface TranscriptJson {
  path: string;
  leafId: string | null;
  entries: SessionEntry[];
}

export interface TranscriptResult {
  /** The whole branch (`show --json`), or with `after`/`limit` one page of it. */
  value: TranscriptJson;
  /** The id to pass as `after` for the next page; null on the last page. */
  nextAfter: string | null;
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
  const limit = checkLimit(options.limit, "Pass e.g. limit=500");
  const { path, file, tree } = await loadSession(env, options.ref);
  reportSkipped(env, path, file.issues);
  const leafId = options.leaf !== undefined ? resolveEntryRef(tree, options.leaf, path) : tree.leafId;
  const walk = tree.walk(leafId);
  if (walk.stop) {
    const why = walk.stop.kind === "cycle" ? "leads back into a parent cycle" : "is not in the file";
    env.report.notice(`the branch starts at "${walk.stop.entryId}": its parent "${walk.stop.parentId}" ${why}`);
  }
  let branch = walk.path;
  if (options.after !== undefined) {
    const afterId = resolveEntryRef(tree, options.after, path);
    const at = branch.findIndex((entry) => entry.id === afterId);
    if (at < 0) {
      throw new QueryError("not-on-branch", `Entry "${afterId}" is not on the branch that ends at "${leafId}"`, "Start again from the first page: the branch has changed");
    }
    branch = branch.slice(at + 1);
  }
  const kept = branch.filter((entry) => passesFilter(entry, filter, tree.labels.has(entry.id)));
  const entries = kept.slice(0, limit);
  const nextAfter = entries.length < kept.length ? entries[entries.length - 1].id : null;
  return { value: { path, leafId, entries }, nextAfter, tree, title: `Session ${tree.sessionName ?? file.header!.id}` };
}
