/**
 * `tree` for sessions of any size: the rows of `sessionTree`, from one streaming read that keeps
 * of each entry only its tree fields and what its row shows (`RowFacts`: role, the always-hidden
 * rule, the row's spans), never the entries themselves. A 1.2 GB session's tree fits in a few
 * hundred megabytes; the rows are the same (tests/query/lean-tree.test.ts).
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { previewEntry, PREVIEW_READ } from "../core/read/lean-entry.ts";
import { SessionReader } from "../core/read/read-session.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import { collectGarbage, GarbageHint } from "../io/collect-garbage.ts";
import { passesFilter, type RowFacts, rowFacts, type TreeFilter, type TreeRow, treeRows } from "../render/tree-rows.ts";
import { NotASessionError, refuseTooDeep } from "../session/errors.ts";
import type { QueryEnv } from "./env.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { reportSkipped } from "./skipped-note.ts";
import { checkTreeFilter, type TreeJson, treeJson, type TreeOptions } from "./tree.ts";

/** Trees of this many entries on get garbage collections between their phases (a full one costs some milliseconds). */
const MANY = 20_000;

/** Fields a tree entry keeps: links, time, and what labels and the name are made of. */
const TREE_FIELDS = ["type", "id", "parentId", "timestamp", "targetId", "label", "name"];

export interface LeanTreeResult {
  /** The rows to draw, and the session's path and tree (every entry id; entries hold their tree fields only). */
  rows: TreeRow[];
  path: string;
  tree: SessionTree;
  /** What `tree --json` prints, made on demand (the rows again, as JSON). */
  json(): TreeJson;
}

type Json = Record<string, unknown>;

/** One string for each of the few values of a type or role (each parsed line has its own copy). */
const interned = new Map<string, string>();
function intern<T>(value: T): T {
  if (typeof value !== "string" || value.length > 40) return value;
  const known = interned.get(value);
  if (known !== undefined) return known as T;
  if (interned.size < 1000) interned.set(value, value);
  return value;
}

/** The tree fields of a (preview) entry, present as they are. */
function treeFields(entry: Json): Json {
  const out: Json = {};
  for (const key of TREE_FIELDS) if (key in entry) out[key] = key === "type" ? intern(entry[key]) : entry[key];
  return out;
}

/** Facts with nothing of their own (no spans, no calls) are one object per role and rule. */
const plain = new Map<string, RowFacts>();
function shared(facts: RowFacts): RowFacts {
  facts.role = intern(facts.role);
  if (facts.spans || facts.calls || facts.callId !== undefined) return facts;
  const key = `${facts.hidden}\u0000${facts.role ?? "\u0001"}`;
  const known = plain.get(key);
  if (known) return known;
  if (plain.size < 1000) plain.set(key, facts);
  return facts;
}

/** What `tree --json` prints of `rows` (made in a scope of its own: it holds nothing else). */
function jsonOf(tree: SessionTree, filter: TreeFilter, rows: TreeRow[]): () => TreeJson {
  return () => treeJson(tree.leafId, filter, rows);
}

/**
 * The rows of a session's tree under `options.filter` (default `default`), as `sessionTree`
 * gives them. Skipped lines are reported as a warning, other problems as a notice.
 *
 * @example
 * ```ts
 * // const { rows } = await leanSessionTree(env, { ref: "@", filter: "user-only" });
 * ```
 */
export async function leanSessionTree(env: QueryEnv, options: TreeOptions): Promise<LeanTreeResult> {
  const filter: TreeFilter = checkTreeFilter(options.filter, "default");
  const path = await resolveSessionRef(env, options.ref);
  const home = env.storage.home;
  const facts = new WeakMap<object, RowFacts>();
  const keep = (entry: Json): Json => {
    const preview = previewEntry(entry) as unknown as SessionEntry;
    // Spans only for entries some row may show (any entry may turn out labelled later on).
    const shown = passesFilter(preview, filter, false) || passesFilter(preview, filter, true);
    const kept = treeFields(preview as unknown as Json);
    facts.set(kept, shared(rowFacts(preview, home, shown)));
    return kept;
  };
  const reader = new SessionReader({ keep, skim: PREVIEW_READ.skim });
  // Every line is parsed (skimmed): much garbage per byte read, collected often.
  const hint = new GarbageHint(16 * 1024 * 1024);
  for await (const chunk of env.fs.read(path, { reuseBuffer: true })) {
    hint.read(chunk.length);
    reader.push(chunk);
  }
  const file = reader.end();
  // The read leaves much garbage behind; the layout that follows is better off without it.
  if (file.entries.length >= MANY) collectGarbage();
  refuseTooDeep(path, file.issues);
  if (file.notSession) throw new NotASessionError(path, file.issues);
  const tree = new SessionTree(file.entries);
  const between = file.entries.length >= MANY ? () => collectGarbage() : undefined;
  const rows = treeRows(tree, { filter, home, facts: (entry) => facts.get(entry) ?? rowFacts(entry, home), between });
  // Each phase's maps over every entry are garbage once it is done: cleared before the next.
  if (file.entries.length >= MANY) collectGarbage();
  const problems = file.issues.length + tree.findIssues(file.entryLines).length;
  if (file.entries.length >= MANY) collectGarbage();
  // Lines left out are said first (the tree lacks them); other problems get the general note.
  if (!reportSkipped(env, path, file.issues) && problems > 0) env.report.notice(`${path} has ${problems} problem${problems === 1 ? "" : "s"}; run \`pi-session check\` on it`);
  return { rows, path, tree, json: jsonOf(tree, filter, rows) };
}
