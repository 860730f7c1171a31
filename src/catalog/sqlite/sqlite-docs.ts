/**
 * The full-text part of the SQLite catalog, kept small: each distinct text is indexed once
 * (`texts`, numbered by its fingerprint, counted by its uses: a fork or clone copies its source's entries, a long session
 * chained from copies repeats them), and each use is a short `docs` row (file number, offset,
 * length, line, timestamp, role, part) pointing at it. Paths are numbers (sqlite-files.ts), and
 * so are timestamps where they are as `toISOString` writes them (`docTime`). The
 * FTS5 table is contentless: the words are in its index only, and a hit is confirmed by
 * re-reading its line, which also gives the entry's id.
 * @module
 */
import type { DocRow } from "../../core/digest/docs-digest.ts";
import type { DocBounds } from "../../core/search/doc-filter.ts";
import { withPrefixWords } from "../../core/search/fts-expression.ts";
import { ftsText, FTS_TOKENIZE } from "../../core/search/words.ts";
import type { DocBatch, DocScope, IndexedDoc } from "../store.ts";
import { readMapped, type SqliteDb, type SqliteStatement } from "./sqlite-db.ts";
import { boundsWhere, oddTimesSearch, ROLES, scopeDocCount, scopedSearch, scopeTexts, search, smallScopeOfTexts, smallScopeSearch, TEXT_STRETCHES, textStretches, TIME_TEXT } from "./sqlite-doc-queries.ts";
import type { SqliteFiles } from "./sqlite-files.ts";

export const DOC_TABLES = `
CREATE TABLE IF NOT EXISTS texts (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, uses INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS texts_hash ON texts (hash);
CREATE TABLE IF NOT EXISTS docs (
  id INTEGER PRIMARY KEY, file INTEGER NOT NULL, off INTEGER NOT NULL, len INTEGER NOT NULL, line INTEGER NOT NULL,
  ts, role NOT NULL, part INTEGER NOT NULL, text INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS docs_file ON docs (file, off);
DROP INDEX IF EXISTS docs_text;
CREATE INDEX IF NOT EXISTS docs_text_ts ON docs (text, ts);
CREATE INDEX IF NOT EXISTS docs_odd_ts ON docs (id) WHERE typeof(ts) = 'text';`;

/**
 * A document's timestamp as stored: milliseconds since 1970 where the text is what
 * `toISOString` makes of them (every one pi writes: 24 bytes of text become 6 of integer, 10 MB
 * of a 25,000-session catalog), else the text itself (or null).
 */
export function docTime(timestamp: string | null): string | number | null {
  if (timestamp === null || timestamp.length !== 24) return timestamp;
  const ms = Date.parse(timestamp);
  return Number.isInteger(ms) && new Date(ms).toISOString() === timestamp ? ms : timestamp;
}

/** The text of a stored timestamp (`docTime`'s inverse). */
export function docTimeText(stored: unknown): string | null {
  if (typeof stored === "number" || typeof stored === "bigint") return new Date(Number(stored)).toISOString();
  return typeof stored === "string" ? stored : null;
}

/**
 * The most documents of a scope searched on their own: `SMALL_SCOPE` by `smallScopeSearch`, then
 * as many or a quarter of the documents (of the largest number given to one, an upper
 * bound of their count) by `scopedSearch`. Past it, the newest uses of the words are mostly the
 * scope's, and a page of them costs less (25,000 sessions, 534,000 documents, `"test" *`: a page
 * of every session's uses 128 ms; by `scopedSearch`, one project's 80 ms, mostly listing the
 * matching texts, 64 projects' (73,000 documents) 85 ms, every project's 302 ms).
 */
const SMALL_SCOPE = 10_000;
const SCOPED_SHARE = 4;

/**
 * Prefixes asked as the index's words they stand for (`withPrefixWords`): of letters a-z and
 * digits (as the tokenizer folds them, so each word of the prefix starts with its bytes), at
 * least 3 long, standing for at most 16 words.
 */
const LISTED_PREFIX = /^[a-z0-9]{3,}$/;
const PREFIX_WORDS_AT_MOST = 16;

/** How a scope's documents are searched: see `SMALL_SCOPE`. */
type ScopeWay = "small" | "scoped" | "every";

/** Parts kept as numbers: 0 text, 1 thinking (their order as text). */
const PARTS = ["text", "thinking"];

/** The tables a schema change drops (the FTS table first: it refers to none). */
export const DOC_TABLE_NAMES = ["docs_fts", "docs", "texts"];

/**
 * The FTS5 index keeps which texts hold a word, not where in them (`detail=none`): phrases are
 * checked by the matcher on the re-read line anyway (fts-expression.ts), and the positions were
 * most of the index (the bench's 2,400 sessions: 47 MB with them, 9 without; a cold `search`
 * 16 s, then 11).
 */
const FTS_DETAIL = "detail=none";

/** The FTS5 table: contentless with deletes where SQLite has them (3.43+), else holding its texts. */
export function ftsTables(): string[] {
  const table = (options: string) => `CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(body${options}, ${FTS_DETAIL}, tokenize="${FTS_TOKENIZE}")`;
  return [table(", content='', contentless_delete=1"), table("")];
}

/**
 * Inside the setup's transaction, before the documents' tables are made: where the full-text
 * index was made another way (with positions, by an older pi-session), it goes with the
 * documents and the docs section's records, so that they are made again as files are read
 * (`search` reads every session once more). The records' triggers drop the section's coverage.
 */
export function dropOtherFullText(db: SqliteDb): void {
  const made = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'docs_fts'").get()?.sql;
  if (typeof made !== "string" || made.includes(FTS_DETAIL)) return;
  for (const table of DOC_TABLE_NAMES) db.exec(`DROP TABLE IF EXISTS ${table}`);
  db.exec("DELETE FROM records WHERE section = 'docs'; DELETE FROM full_checks WHERE section LIKE 'docs@%'");
}

/**
 * A 53-bit fingerprint of a text and its length (cyrb53 over UTF-16 code units). Two different
 * texts share one with odds of about one in 10^16 per pair (one in a few hundred thousand for a
 * corpus of 200,000 distinct texts); the later one is then found by the other's words, as a hit is
 * always confirmed by re-reading its line. Texts are numbered in the order they come, not by it:
 * the FTS index stores the gaps between the numbers of the texts holding a word, and random
 * numbers made its data twice as big.
 */
export function textHash(text: string): number {
  let h1 = 0xdeadbeef ^ text.length;
  let h2 = 0x41c6ce57 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The documents of a `SqliteCatalogStore`; every method runs inside the store's transaction. */
export class SqliteDocs {
  #db: SqliteDb;
  #files: SqliteFiles;
  readonly #statements = new Map<string, SqliteStatement>();
  /** How each scope given is searched (`#scopeWay`). */
  readonly #ways = new WeakMap<DocScope, ScopeWay>();
  /** Whether the table of the index's words is made (`#wordsOf`): false where it cannot be. */
  #words: boolean | undefined;

  constructor(db: SqliteDb, files: SqliteFiles) {
    this.#db = db;
    this.#files = files;
  }

  /**
   * The statement of `sql`, prepared once: a document's text was looked up and counted through
   * two or three statements prepared for it alone (each compiled, and each a native object
   * freed only when the garbage collector finalized it).
   */
  #prepared(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, statement = this.#db.prepare(sql));
    return statement;
  }

  /** Removes `path`'s documents at offsets `from` and later; texts no longer used leave the index. */
  drop(path: string, from: number): void {
    const file = this.#files.id(path, false);
    if (file === undefined) return;
    const uses = new Map<number, number>();
    for (const [text] of this.#prepared("SELECT text FROM docs WHERE file = ? AND off >= ?").values(file, from)) {
      uses.set(Number(text), (uses.get(Number(text)) ?? 0) + 1);
    }
    if (uses.size === 0) return;
    const lessen = this.#prepared("UPDATE texts SET uses = uses - ? WHERE id = ?");
    const left = this.#prepared("SELECT uses FROM texts WHERE id = ?");
    const forget = this.#prepared("DELETE FROM texts WHERE id = ?");
    const unindex = this.#prepared("DELETE FROM docs_fts WHERE rowid = ?");
    for (const [text, count] of uses) {
      lessen.run(count, text);
      if (Number(left.values(text)[0]?.[0] ?? 0) > 0) continue;
      forget.run(text);
      unindex.run(text);
    }
    this.#prepared("DELETE FROM docs WHERE file = ? AND off >= ?").run(file, from);
  }

  /** Forgets `path`'s documents altogether (its file is gone; its number is the store's to forget). */
  remove(path: string): void {
    this.drop(path, 0);
  }

  /** Replaces `batch.path`'s documents from `batch.from` on with its rows. */
  add(batch: DocBatch): void {
    this.drop(batch.path, batch.from);
    if (batch.rows.length === 0) return;
    const file = this.#files.id(batch.path, true)!;
    const doc = this.#prepared("INSERT INTO docs (file, off, len, line, ts, role, part, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    for (const row of batch.rows) {
      const role = ROLES.indexOf(row.role);
      const time = docTime(row.timestamp);
      // A bigint, so that node:sqlite binds it as an integer (a number is bound as a real: 8 bytes).
      doc.run(file, row.offset, row.length, row.line, typeof time === "number" ? BigInt(time) : time, role < 0 ? row.role : role, PARTS.indexOf(row.part), this.#text(row));
    }
  }

  /** The number of a row's text, indexed when new, its uses counted when not. */
  #text(row: DocRow): number {
    const body = ftsText(row.text);
    const hash = textHash(body);
    const known = this.#prepared("SELECT id FROM texts WHERE hash = ?").values(hash)[0];
    if (known !== undefined) {
      this.#prepared("UPDATE texts SET uses = uses + 1 WHERE id = ?").run(known[0] as number);
      return Number(known[0]);
    }
    const id = Number(this.#prepared("INSERT INTO texts (hash, uses) VALUES (?, 1)").run(hash).lastInsertRowid);
    this.#prepared("INSERT INTO docs_fts (rowid, body) VALUES (?, ?)").run(id, body);
    return id;
  }

  /**
   * The index's words starting with `prefix`, or undefined where it is not listed (see
   * `LISTED_PREFIX`), stands for more words, or the words cannot be listed: through fts5vocab's
   * table of every use of every word, made for this connection alone (nothing is written to the
   * catalog), a word at a time, each found by going to the first use at or after the word before
   * it and a NUL (no word has one). Its table of words with their counts went through every use
   * of each ("test": 150,000 uses, 3 ms); so did asking for the first word past another.
   */
  #wordsOf(prefix: string): string[] | undefined {
    if (!LISTED_PREFIX.test(prefix) || this.#words === false) return undefined;
    try {
      if (this.#words === undefined) this.#db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.docs_word_uses USING fts5vocab(main, docs_fts, 'instance')");
      this.#words = true;
      // Every word with the prefix sorts from it to the prefix with its last letter the next one.
      const past = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
      const from = this.#prepared("SELECT term FROM temp.docs_word_uses WHERE term >= ?1 AND term < ?2 LIMIT 1");
      const words: string[] = [];
      for (let row = from.values(prefix, past)[0]; row !== undefined; row = from.values(`${words[words.length - 1]}\u0000`, past)[0]) {
        if (words.length === PREFIX_WORDS_AT_MOST) return undefined;
        words.push(String(row[0]));
      }
      return words;
    } catch {
      this.#words = false;
      return undefined;
    }
  }

  /** True when `search` reads the documents of `within`'s files alone. */
  searchesWithin(within: DocScope): boolean {
    return this.#scopeWay(within) !== "every";
  }

  /**
   * How `within` is searched: `small` (`smallScopeSearch`) or `scoped` (`scopedSearch`), or
   * through the uses of every file where it has too many documents (see `SMALL_SCOPE`). Told
   * once for each scope: its pages are searched the same way.
   */
  #scopeWay(within: DocScope): ScopeWay {
    let way = this.#ways.get(within);
    if (way === undefined) this.#ways.set(within, way = readMapped(this.#db, () => this.#countedWay(within)));
    return way;
  }

  #countedWay(within: DocScope): ScopeWay {
    const scope = JSON.stringify("dirs" in within ? within.dirs : within.paths);
    const top = Number(this.#db.prepare("SELECT max(id) FROM docs").values()[0]?.[0] ?? 0);
    const most = Math.max(SMALL_SCOPE, Math.floor(top / SCOPED_SHARE));
    const count = Number(this.#prepared(scopeDocCount(within)).values(scope, most + 1)[0]?.[0] ?? 0);
    return count <= SMALL_SCOPE ? "small" : count <= most ? "scoped" : "every";
  }

  clear(): void {
    this.#db.exec("INSERT INTO docs_fts (docs_fts) VALUES ('delete-all'); DELETE FROM docs; DELETE FROM texts;");
  }

  count(): number {
    return Number(this.#db.prepare("SELECT COUNT(*) AS n FROM docs").get()?.n ?? 0);
  }

  /**
   * Uses of texts matching `expression`, newest first (then by path, line and part), `limit` from
   * `offset` on; with `within`, only those of its files where they are few enough to be searched
   * on their own (`SMALL_SCOPE`), else of every file.
   */
  search(expression: string, offset: number, limit: number, within?: DocScope, bounds?: DocBounds): IndexedDoc[] {
    // Timestamps kept as text (not as toISOString writes them) are found through a partial index of
    // them alone, named: SQLite would rather scan every entry of the index of texts, which has the
    // timestamps too (30 ms at 25,000 sessions).
    const oddTimes = this.#db.prepare("SELECT 1 FROM docs INDEXED BY docs_odd_ts WHERE typeof(ts) = 'text' LIMIT 1").values().length > 0;
    // Through a memory map: the uses of a word are scattered over the file's pages (a warm search
    // of 25,000 sessions: 14 → 6 ms for 419 uses).
    const way = within ? this.#scopeWay(within) : "every";
    const asked = withPrefixWords(expression, (prefix) => this.#wordsOf(prefix));
    if (asked === null) return [];
    const rows = readMapped(this.#db, () => {
      if (way === "every") {
        const where = boundsWhere(bounds, oddTimes ? "d." : "", 4, oddTimes);
        return this.#db.prepare(oddTimes ? oddTimesSearch(where.sql) : search(where.sql)).values(asked, offset, limit, ...where.values);
      }
      const where = boundsWhere(bounds, "d.", 5, oddTimes);
      const order = oddTimes ? TIME_TEXT : "d.ts";
      const scope = JSON.stringify("dirs" in within! ? within.dirs : within!.paths);
      if (way === "small" && !asked.includes('" *')) {
        // The scope's texts first, then those of them that match, stretch by stretch.
        const texts = this.#prepared(scopeTexts(within!, where.sql)).values(null, null, null, scope, ...where.values).map(([text]) => Number(text));
        const inStretch = this.#prepared("SELECT rowid FROM docs_fts WHERE docs_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3");
        const matching = textStretches(texts, TEXT_STRETCHES).flatMap(([first, last]) => inStretch.values(asked, first, last).map(([text]) => Number(text)));
        return this.#prepared(smallScopeOfTexts(within!, order, where.sql)).values(JSON.stringify(matching), offset, limit, scope, ...where.values);
      }
      const sql = (way === "small" ? smallScopeSearch : scopedSearch)(within!, order, where.sql);
      return this.#prepared(sql).values(asked, offset, limit, scope, ...where.values);
    });
    return rows.map(([path, ts, role, part, line, off, len]) => ({
      path: path as string,
      // Not kept: read back from the entry's line when the hit is confirmed.
      entryId: null,
      timestamp: docTimeText(ts),
      role: typeof role === "number" ? ROLES[role] : String(role),
      part: PARTS[Number(part)],
      line: Number(line),
      offset: Number(off),
      length: Number(len),
    }));
  }
}
