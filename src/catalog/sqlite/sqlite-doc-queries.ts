/**
 * The SQL of a search among the SQLite catalog's documents (sqlite-docs.ts): through every use
 * of the matching texts, newest first, or through a scope's documents alone, small or larger;
 * the conditions of a filter's bounds; and the stretches of text numbers a small scope's texts
 * are asked of the index in.
 * @module
 */
import type { DocBounds } from "../../core/search/doc-filter.ts";
import type { DocScope } from "../store.ts";

/** Roles kept as small numbers (any other as its text). */
export const ROLES = ["user", "assistant", "toolResult", "summary", "label", "name"];

/**
 * A stored timestamp as its text, in SQL, for an order that is the texts' order (newest first)
 * where some are kept as text: numbers alone sort as their texts do.
 */
export const TIME_TEXT = "CASE WHEN typeof(d.ts) = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', d.ts / 1000.0, 'unixepoch') ELSE d.ts END";

/**
 * The uses of the texts matching ?1, newest first, ?3 of them from ?2 on. Each use's timestamp is
 * in the index of texts (`docs_text_ts`): the newest are found there, and only the rows at least
 * as new as the last one asked for (ties with it included, as the order goes on by path) are read
 * from the table. Reading every use's row took a warm search of 25,000 sessions 5.5 ms for the 419
 * uses of a word, against 3 (SQLite alone, by hand), and a word of 500,000 uses 170 ms against 100.
 * A cut at a null timestamp (or beyond the last use) reads them all.
 */
export const search = (where: string) => `WITH hits AS (SELECT id, ts FROM docs WHERE text IN (SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?1)${where}),
  cut AS (SELECT ts FROM hits ORDER BY ts DESC LIMIT 1 OFFSET ?2 + ?3 - 1)
  SELECT f.path, d.ts, d.role, d.part, d.line, d.off, d.len FROM hits h JOIN docs d ON d.id = h.id JOIN files f ON f.id = d.file
  WHERE (SELECT ts FROM cut) IS NULL OR h.ts >= (SELECT ts FROM cut)
  ORDER BY d.ts DESC, f.path, d.line, d.part LIMIT ?3 OFFSET ?2`;

/** `search` where some timestamps are kept as text: ordered by every use's timestamp as text. */
export const oddTimesSearch = (where: string) => `SELECT f.path, d.ts, d.role, d.part, d.line, d.off, d.len FROM docs d JOIN files f ON f.id = d.file
  WHERE d.text IN (SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?1)${where} ORDER BY ${TIME_TEXT} DESC, f.path, d.line, d.part LIMIT ?3 OFFSET ?2`;

/**
 * The conditions of `bounds` on a document (its columns named with `alias`), each after an AND,
 * their parameters numbered from `first` on; with `oddTimes`, a timestamp kept as text passes
 * (the caller's filter reads it). A time bound leaves out the uses of a word outside it without
 * reading their rows (`docs_text_ts`): `search test --all --since` a day without hits read every
 * use, a page at a time, 66 s at 25,000 sessions.
 */
export function boundsWhere(bounds: DocBounds | undefined, alias: string, first: number, oddTimes: boolean): { sql: string; values: (number | string)[] } {
  const values: (number | string)[] = [];
  const param = (value: number | string) => `?${first + values.push(value) - 1}`;
  const conditions: string[] = [];
  const time: string[] = [];
  if (bounds?.fromMs !== undefined) time.push(`${alias}ts >= ${param(bounds.fromMs)}`);
  if (bounds?.toMs !== undefined) time.push(`${alias}ts < ${param(bounds.toMs)}`);
  if (time.length > 0) conditions.push(oddTimes ? `(typeof(${alias}ts) = 'text' OR (${time.join(" AND ")}))` : time.join(" AND "));
  if (bounds?.roles?.length) {
    const stored = bounds.roles.map((role) => (ROLES.includes(role) ? ROLES.indexOf(role) : role));
    conditions.push(`${alias}role IN (SELECT value FROM json_each(${param(JSON.stringify(stored))}))`);
  }
  return { sql: conditions.map((condition) => ` AND ${condition}`).join(""), values };
}

/**
 * The files of a scope, numbered: those under one of the folders of the JSON array `?N` (any
 * depth: their paths start with the folder and a slash, and "0" follows "/"), or named in it.
 */
const scopeFiles = (within: DocScope, n: number) =>
  "dirs" in within
    ? `SELECT f.id, f.path FROM json_each(?${n}) j CROSS JOIN files f WHERE f.path >= j.value || '/' AND f.path < j.value || '0'`
    : `SELECT f.id, f.path FROM json_each(?${n}) j CROSS JOIN files f WHERE f.path = j.value`;

/** How many of the scope's (`?1`) documents there are, counted up to `?2`. */
export const scopeDocCount = (within: DocScope) => `WITH sf AS MATERIALIZED (${scopeFiles(within, 1)})
  SELECT count(*) FROM (SELECT 1 FROM sf CROSS JOIN docs d INDEXED BY docs_file ON d.file = sf.id LIMIT ?2)`;

/**
 * `search` among a scope's (`?4`) documents alone, ordered by `order`: the texts matching the
 * expression are listed once, and each document of the scope's files is looked up among them.
 * Through the index of texts, the search of one project of 70 sessions among 25,000 read every
 * use of a common word, a page at a time, to find the few in its files: 19 s for "test" (and
 * each document matched by the expression on its own took 14 ms: a prefix query merges the
 * lists of every word it names, each time).
 */
export const scopedSearch = (within: DocScope, order: string, where: string) => `WITH sf AS MATERIALIZED (${scopeFiles(within, 4)}),
  matching AS MATERIALIZED (SELECT rowid AS text FROM docs_fts WHERE docs_fts MATCH ?1)
  SELECT sf.path, d.ts, d.role, d.part, d.line, d.off, d.len FROM sf CROSS JOIN docs d INDEXED BY docs_file ON d.file = sf.id
  WHERE d.text IN matching${where} ORDER BY ${order} DESC, sf.path, d.line, d.part LIMIT ?3 OFFSET ?2`;

/**
 * `scopedSearch` for a small scope: its documents first, and of the texts matching the expression
 * only theirs kept (the `+` keeps SQLite from asking the index for each of them, one by one).
 * Listing every matching text took most of a small scope's search: one project, `"test" *`,
 * 53-87 → 20-31 ms; 16 projects (11,000 documents) 55-69 → 41-47; 64 projects (73,000) 85-100 →
 * 150-190, where `scopedSearch` is the quicker.
 */
export const smallScopeSearch = (within: DocScope, order: string, where: string) => `WITH sf AS MATERIALIZED (${scopeFiles(within, 4)}),
  sd AS MATERIALIZED (SELECT sf.path, d.ts, d.role, d.part, d.line, d.off, d.len, d.text FROM sf CROSS JOIN docs d INDEXED BY docs_file ON d.file = sf.id WHERE 1${where}),
  matching AS MATERIALIZED (SELECT rowid AS text FROM docs_fts WHERE docs_fts MATCH ?1 AND +rowid IN (SELECT text FROM sd))
  SELECT d.path, d.ts, d.role, d.part, d.line, d.off, d.len FROM sd d WHERE d.text IN matching ORDER BY ${order} DESC, d.path, d.line, d.part LIMIT ?3 OFFSET ?2`;

/** The distinct texts of a scope's (`?4`) documents, in order of their numbers. */
export const scopeTexts = (within: DocScope, where: string) => `WITH sf AS MATERIALIZED (${scopeFiles(within, 4)})
  SELECT DISTINCT d.text FROM sf CROSS JOIN docs d INDEXED BY docs_file ON d.file = sf.id WHERE 1${where} ORDER BY 1`;

/** `smallScopeSearch` given the texts that match (the JSON array `?1`). */
export const smallScopeOfTexts = (within: DocScope, order: string, where: string) => `WITH sf AS MATERIALIZED (${scopeFiles(within, 4)})
  SELECT sf.path, d.ts, d.role, d.part, d.line, d.off, d.len FROM sf CROSS JOIN docs d INDEXED BY docs_file ON d.file = sf.id
  WHERE d.text IN (SELECT value FROM json_each(?1))${where} ORDER BY ${order} DESC, sf.path, d.line, d.part LIMIT ?3 OFFSET ?2`;

/**
 * Stretches of text numbers a small scope's texts are looked for in, each asked of the index on
 * its own: the texts split where they lie furthest apart. A word's uses between two numbers are
 * found by skipping through its list to the first (a prefix's words are merged whole first, so a
 * prefix is never asked so). The 420 texts of one project of 25,000 sessions lie in 5 stretches:
 * its texts holding "test" or "tests" were found in 0.2 ms, where going through their 150,000
 * uses for the scope's took 6 to 10.
 */
export const TEXT_STRETCHES = 32;

/** `sorted` (distinct numbers) as at most `most` stretches `[first, last]`, split at the widest gaps. */
export function textStretches(sorted: readonly number[], most: number): [number, number][] {
  if (sorted.length === 0) return [];
  const gaps = sorted.slice(1).map((n, i) => [n - sorted[i], i + 1] as const);
  const splits = gaps.sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, most - 1).map(([, at]) => at).sort((a, b) => a - b);
  const stretches: [number, number][] = [];
  let from = 0;
  for (const at of [...splits, sorted.length]) {
    stretches.push([sorted[from], sorted[at - 1]]);
    from = at;
  }
  return stretches;
}
