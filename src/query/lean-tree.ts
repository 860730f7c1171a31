/**
 * `tree` for sessions of any size: the rows of `sessionTree`, from one streaming read that keeps
 * of each entry only its tree fields and what its row shows (`RowFacts`: role, the always-hidden
 * rule, the row's spans), never the entries themselves. The read skims long lines as `info`
 * does, keeping of each string what a preview shows (201 characters; tool results, which are
 * most of a session's bytes, show none of their text). A 1.2 GB session's tree fits in a few
 * hundred megabytes; the rows are the same (tests/cli/huge-streams.test.ts).
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { previewEntry, PREVIEW_READ } from "../core/read/lean-entry.ts";
import { EntryForest } from "../core/tree/entry-forest.ts";
import { collectGarbage } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import type { Span } from "../render/entry-line.ts";
import { factRows } from "../render/fact-rows.ts";
import { passesFilter, type RowFacts, rowFacts, type TreeFilter, type TreeRow } from "../render/tree-rows.ts";
import { NotASessionError, refuseTooDeep } from "../session/errors.ts";
import type { QueryEnv } from "./env.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { readSessionFile } from "./skim-ahead.ts";
import { reportSkipped } from "./skipped-note.ts";
import { checkTreeFilter, type TreeJson, treeJson, type TreeOptions } from "./tree.ts";

/** Trees of this many entries on get garbage collections between their phases (a full one costs some milliseconds). */
const MANY = 20_000;

/** Fields a tree entry keeps: links, time, and what labels and the name are made of. */
const TREE_FIELDS = ["type", "id", "parentId", "timestamp", "targetId", "label", "name"];

export interface LeanTreeResult {
  /** The rows to draw, the session's path and its leaf. */
  rows: TreeRow[];
  path: string;
  leafId: string | null;
  /** Every entry id of the session (what row ids must be told apart from). */
  ids: string[];
  /** What `tree --json` prints, made on demand (the rows again, as JSON; `treeRowJson` makes one row's). */
  json(): TreeJson;
}

type Json = Record<string, unknown>;

/** Where a kept entry holds its row facts. */
const FACTS = Symbol("row facts");
type Facted = Json & { [FACTS]?: RowFacts };

/** One string for each of the few values of a type or role (each parsed line has its own copy). */
const interned = new Map<string, string>();
function intern<T>(value: T): T {
  if (typeof value !== "string" || value.length > 40) return value;
  const known = interned.get(value);
  if (known !== undefined) return known as T;
  if (interned.size < 1000) interned.set(value, value);
  return value;
}

/**
 * The tree fields of an entry, present as a preview has them (`previewEntry`): strings and
 * other plain values as they are, an array as [] and an object as {}.
 */
function treeFields(entry: Json): Facted {
  const out: Facted = {};
  for (const key of TREE_FIELDS) {
    if (!(key in entry)) continue;
    const value = entry[key];
    out[key] = key === "type" ? intern(value) : typeof value !== "object" || value === null ? value : Array.isArray(value) ? [] : {};
  }
  return out;
}

/**
 * An assistant message without its tool calls (the rest as it is), for a filter that shows no
 * tool result: its row and its always-hidden rule are the same, and no call line is made.
 */
function withoutCalls(entry: SessionEntry): SessionEntry {
  const message = (entry as unknown as Json).message as Json | undefined;
  if (entry.type !== "message" || typeof message !== "object" || message === null || message.role !== "assistant" || !Array.isArray(message.content)) return entry;
  const content = message.content.filter((block) => typeof block !== "object" || block === null || (block as Json).type !== "toolCall");
  return { ...entry, message: { ...message, content } } as unknown as SessionEntry;
}

/**
 * A copy of a string that holds no reference to a longer one it was cut from: engines keep a
 * slice as a view into the whole, however short (see lean-entry.ts). Padding makes a new flat
 * string in JavaScriptCore and V8 (measured: 50,000 slices of 120 characters of 5 KB strings
 * keep 15 MB this way, 419 MB as slices), a few times faster than a JSON round trip.
 */
function detach(text: string): string {
  return text.padStart(text.length + 1).slice(1);
}

/** One span object for each of the few spans many rows begin with (`user: `, `assistant: `, …). */
const heads = new Map<string, Span>();

/** Spans whose texts are detached from the entry's strings (the entry is let go), common ones shared. */
function detachSpans(spans: Span[]): Span[] {
  for (let i = 0; i < spans.length; i++) {
    const { text, tone } = spans[i];
    const key = text.length <= 16 ? `${tone}\u0000${text}` : undefined;
    const known = key === undefined ? undefined : heads.get(key);
    if (known) {
      spans[i] = known;
      continue;
    }
    spans[i].text = detach(text);
    if (key !== undefined && heads.size < 1000) heads.set(key, spans[i]);
  }
  return spans;
}

/** Row facts whose spans hold nothing of the entry (see `detachSpans`). */
function detachedFacts(facts: RowFacts): RowFacts {
  if (facts.spans) detachSpans(facts.spans);
  for (const [, spans] of facts.calls ?? []) detachSpans(spans);
  return facts;
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

/** Whether an entry is a tool result: its row shows its call's line or its tool's name, never its text. */
function isToolResult(entry: Json): boolean {
  const message = entry.message;
  return entry.type === "message" && typeof message === "object" && message !== null && (message as Json).role === "toolResult";
}

/** What `tree --json` prints of `rows` (made in a scope of its own: it holds nothing else). */
function jsonOf(leafId: string | null, filter: TreeFilter, rows: TreeRow[]): () => TreeJson {
  return () => treeJson(leafId, filter, rows);
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
  // Each kept entry carries its facts under a symbol (not a WeakMap: 100k+ weak entries make
  // every collection slow).
  // A tool result's row shows its call's line: the calls' lines are made only when some can be.
  const callsShown = filter !== "user-only" && filter !== "no-tools";
  const keep = (entry: Json, skimmed?: boolean): Json => {
    // Long lines are skimmed with the 201 characters of each string a preview keeps (once:
    // a row's text needs no more). A tool result's row shows none of its strings (its call's
    // line, else its tool's name, kept whole), so it is taken as it is. Facts made from whole
    // strings hold no part of them.
    const source = (skimmed && !isToolResult(entry) ? previewEntry(entry) : entry) as unknown as SessionEntry;
    // Spans only for entries some row may show (any entry may turn out labelled later on).
    const shown = passesFilter(source, filter, false) || passesFilter(source, filter, true);
    const kept = treeFields(source as unknown as Json);
    kept[FACTS] = shared(detachedFacts(rowFacts(callsShown ? source : withoutCalls(source), home, shown)));
    return kept;
  };
  // Each line is parsed (skimmed): its garbage is collected young as the read goes (cheap,
  // where a full collection every few megabytes cost more than the read itself).
  const pacer = new GarbagePacer({ everyAmount: 16 * 1024 * 1024, amountYoung: true });
  const file = await readSessionFile(env.fs, path, { ...PREVIEW_READ, keep }, (bytes) => pacer.add(bytes));
  const many = file.entries.length >= MANY;
  // The read leaves much garbage behind; the layout that follows is better off without it.
  if (many) collectGarbage();
  refuseTooDeep(path, file.issues);
  if (file.notSession) throw new NotASessionError(path, file.issues);
  const forest = new EntryForest(file.entries);
  const rows = factRows(forest, { filter, facts: (entry) => (entry as unknown as Facted)[FACTS] ?? rowFacts(entry, home) });
  if (many) collectGarbage(true);
  const problems = file.issues.length + forest.issueCount;
  // Lines left out are said first (the tree lacks them); other problems get the general note.
  if (!reportSkipped(env, path, file.issues) && problems > 0) env.report.notice(`${path} has ${problems} problem${problems === 1 ? "" : "s"}; run \`pi-session check\` on it`);
  // The tree, its entries and their facts are let go: the rows hold what they show.
  return { rows, path, leafId: forest.leafId, ids: forest.ids(), json: jsonOf(forest.leafId, filter, rows) };
}
