/**
 * The catalog in one SQLite database: `records` (section, file number → record; paths in `files`;
 * read in sqlite-record-rows.ts), the quick check's `folders`, `full_checks` and coverage
 * (sqlite-coverage.ts), and for search the documents (sqlite-docs.ts: deduplicated texts under a
 * contentless FTS5 index); the layout is set up in sqlite-schema.ts. Each save is one
 * `BEGIN IMMEDIATE` transaction, so concurrent indexers queue.
 * @module
 */
import {
  type CatalogRecord,
  type CatalogStore,
  type Coverage,
  type FolderRecord,
  type FolderSnapshot,
  type HeaderStamp,
  type DocScope,
  type IndexedDoc,
  type RecordStamp,
  type StoredRow,
  type SectionChanges,
  type SectionKey,
  type StoredHead,
  type StoreDescription,
} from "../store.ts";
import { encodeState } from "../stored-state.ts";
import type { DigestState } from "../../core/digest/digester.ts";
import type { DocBounds } from "../../core/search/doc-filter.ts";
import { LIST_ROW_SECTION, soundListRow } from "../list-row.ts";
import { COVERAGE_TABLE, loadCoverage, loadNamesIn, loadRecentStamps, loadStampsIn, countFilesIn, countRecords, saveCoverage } from "./sqlite-coverage.ts";
import { filesMentioning, headerIdsFrom, headerlessFiles, nearestHeaderIds, type NearestIds } from "./sqlite-record-lookups.ts";
import { readMapped, type SqliteDb, type SqliteStatement } from "./sqlite-db.ts";
import { loadFolders, saveFolders } from "./sqlite-folders.ts";
import { SqliteDocs } from "./sqlite-docs.ts";
import { SqliteFiles } from "./sqlite-files.ts";
import { eachHeadOf, HEAD_TABLE, headsOf } from "./sqlite-heads.ts";
import { eachStamp, loadHeaderIds, loadPaths, loadRows, loadSection, loadStamps } from "./sqlite-record-rows.ts";
import { SqliteAnswers } from "./sqlite-answers.ts";
import { setUpSchema } from "./sqlite-schema.ts";
import { StaleVersions } from "./sqlite-stale.ts";
import { SqliteListRows } from "./sqlite-list-rows.ts";
import { packState, readyToPack } from "./sqlite-packed.ts";

/**
 * A `CatalogStore` over an open `SqliteDb` (see `openSqliteStore` for picking the binding).
 *
 * @example
 * ```ts
 * const store = new SqliteCatalogStore(await openBunSqlite(":memory:"), ":memory:");
 * store.supportsDocs; // true where SQLite has FTS5
 * ```
 */
export class SqliteCatalogStore implements CatalogStore {
  readonly kind: string;
  readonly location: string;
  readonly supportsDocs: boolean;
  /**
   * A save is one transaction: a cold refresh saves as it goes. Each commit writes every page it
   * touched to the log: a cold list of 25,000 sessions wrote 79,000 pages in batches of 64 files,
   * 59,000 in batches of 128 (1 to 3 MB more at its peak) and 46,000 in batches of 256 (6 MB more).
   */
  readonly recordBatch = 128;
  /** The listing section's rows (sqlite-list-rows.ts), read in a listing's order without loading records; answers kept (sqlite-answers.ts). */
  readonly listRows: SqliteListRows;
  readonly answers: SqliteAnswers;
  #db: SqliteDb;
  #docs: SqliteDocs;
  readonly #rowStatements = new Map<number, SqliteStatement>();
  readonly #statements = new Map<string, SqliteStatement>();
  #files: SqliteFiles;
  /** Sections already rid of records of other versions (sqlite-stale.ts). */
  readonly #stale = new StaleVersions();

  constructor(db: SqliteDb, location: string) {
    this.#db = db;
    this.#files = new SqliteFiles(db);
    this.location = location;
    this.listRows = new SqliteListRows(db, {
      load: (section, paths) => loadPaths(db, section, paths),
      transaction: (work) => this.#transaction(work),
    });
    this.answers = new SqliteAnswers(db, (work) => this.#transaction(work));
    this.kind = `sqlite (${db.driver})`;
    const { fullText, migrated } = setUpSchema(db, {
      transaction: (work) => this.#transaction(work),
      markRows: () => this.listRows.markAll(),
      tryExec: (sql) => this.#tryExec(sql),
    });
    this.supportsDocs = fullText;
    this.#docs = new SqliteDocs(db, this.#files);
    // The old tables' pages are free but still in the file: give them back once.
    if (migrated) this.compact();
  }

  /**
   * Merges the full-text index into one segment (FTS5's `optimize`), rewrites the file without
   * its free pages and with its pages full (`VACUUM`; about 2 s for a 250 MB catalog of 25,000
   * sessions, and 1.5 s more for the merge), then empties the write-ahead log it went through.
   * Not done when another process has the file open for a transaction: the next one does it.
   * A build leaves the index in a score of segments, and a query looks for its words' prefixes
   * in each: the first search of a run took 4 to 5 ms more for it (more on a loaded machine,
   * 200 more page faults), against 0.5 ms over the merged index.
   */
  compact(): boolean {
    try {
      if (this.supportsDocs) this.#tryExec("INSERT INTO docs_fts (docs_fts) VALUES ('optimize')");
      this.#db.exec("VACUUM");
      this.#db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      return true;
    } catch {
      return false;
    }
  }

  #tryExec(sql: string): boolean {
    try {
      this.#db.exec(sql);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The statement of `sql`, prepared once per store: a cold build saves hundreds of times, and
   * preparing an insert into `records` compiles its triggers too.
   */
  #prepared(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, statement = this.#db.prepare(sql));
    return statement;
  }

  #transaction(work: () => void): void {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      work();
      this.#db.exec("COMMIT");
    } catch (error) {
      this.#tryExec("ROLLBACK");
      this.#stale.forget();
      throw error;
    }
  }

  load(section: SectionKey): Promise<Map<string, CatalogRecord>> {
    return afterPacking(section, () => loadSection(this.#db, section));
  }

  loadStamps(section: SectionKey): Promise<Map<string, RecordStamp>> {
    return Promise.resolve(loadStamps(this.#db, section));
  }

  loadHeaderIds(section: SectionKey): Promise<Map<string, HeaderStamp>> {
    return Promise.resolve(loadHeaderIds(this.#db, section));
  }

  eachStamp(section: SectionKey, visit: (path: string, size: number, mtimeMs: number, headerId: string | null) => void): Promise<void> {
    eachStamp(this.#db, section, visit);
    return Promise.resolve();
  }

  loadHeads(section: SectionKey): Promise<StoredHead[]> {
    try {
      return Promise.resolve(headsOf(this.#db, section));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  eachHead(section: SectionKey, visit: (head: StoredHead) => void): Promise<void> {
    try {
      eachHeadOf(this.#db, section, visit);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  loadRows(section: SectionKey, rows: readonly number[]): Promise<Map<number, StoredRow>> {
    return afterPacking(section, () => loadRows(this.#db, section, rows, this.#rowStatements));
  }

  loadPaths(section: SectionKey, paths: readonly string[]): Promise<Map<string, CatalogRecord>> {
    return afterPacking(section, () => loadPaths(this.#db, section, paths));
  }

  save(section: SectionKey, changes: SectionChanges): Promise<void> {
    return afterPacking(section, () => this.#save(section, changes));
  }

  #save(section: SectionKey, changes: SectionChanges): void {
    const db = this.#db;
    this.#transaction(() => {
      const stale = this.#stale.drop(db, section);
      if (section.name === "docs" && stale > 0 && this.supportsDocs) this.#docs.clear();
      const put = this.#prepared(
        "INSERT OR REPLACE INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state, final) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const r of changes.put) {
        put.run(section.name, section.version, this.#files.id(r.path, true)!, r.size, r.mtimeMs, r.end, r.lines, r.headHash, r.tailHash, r.headerId, stored(section, r.state), r.final ? stored(section, r.final) : null);
      }
      const remove = this.#prepared("DELETE FROM records WHERE section = ? AND file = ?");
      const removed = changes.remove.flatMap((path) => this.#files.id(path, false) ?? []);
      for (const file of removed) remove.run(section.name, file);
      if (section.name === LIST_ROW_SECTION) {
        const rows = changes.put.map((r) => [r.path, soundListRow(section, r)] as const);
        this.listRows.remove([...changes.remove, ...rows.filter(([, row]) => row === null).map(([path]) => path)]);
        this.listRows.put(rows.flatMap(([, row]) => (row ? [row] : [])), section.version);
      }
      if (section.name === "docs" && this.supportsDocs) {
        for (const path of changes.remove) this.#docs.remove(path);
        for (const batch of changes.docs ?? []) this.#docs.add(batch);
      }
      this.#files.forgetUnused(removed);
    });
  }

  loadFolders(): Promise<FolderSnapshot> {
    return Promise.resolve(loadFolders(this.#db));
  }

  saveFolders(folders: readonly FolderRecord[], remove: readonly string[], fullChecks: ReadonlyMap<string, number>): Promise<void> {
    this.#transaction(() => saveFolders(this.#db, folders, remove, fullChecks));
    return Promise.resolve();
  }

  loadCoverage(section: SectionKey): Promise<Coverage> {
    return Promise.resolve(loadCoverage(this.#db, section));
  }

  saveCoverage(section: SectionKey, put: ReadonlyMap<string, number>, drop: readonly string[], token: number, stamps?: ReadonlyMap<string, string>): Promise<boolean> {
    let saved = false;
    this.#transaction(() => (saved = saveCoverage(this.#db, section, put, drop, token, stamps)));
    return Promise.resolve(saved);
  }

  loadRecentStamps(section: SectionKey, since: number): Promise<Map<string, RecordStamp>> {
    return Promise.resolve(loadRecentStamps(this.#db, section, since));
  }

  loadStampsIn(section: SectionKey, folders: readonly string[]): Promise<Map<string, RecordStamp>> {
    return Promise.resolve(loadStampsIn(this.#db, section, folders, (sql) => this.#prepared(sql)));
  }

  loadNamesIn(section: SectionKey, folder: string): Promise<Map<string, RecordStamp>> {
    return Promise.resolve(loadNamesIn(this.#db, section, folder, (sql) => this.#prepared(sql)));
  }

  countFilesIn(dir: string): Promise<number> {
    return Promise.resolve(countFilesIn(this.#db, dir));
  }

  countRecords(section: SectionKey): Promise<number> {
    return Promise.resolve(countRecords(this.#db, section));
  }

  headerIdsFrom(section: SectionKey, dir: string, from: string, direction: "down" | "up" | "above"): Iterable<[string, string]> {
    return headerIdsFrom((sql) => this.#prepared(sql), section, dir, from, direction);
  }

  nearestHeaderIds(section: SectionKey, dir: string, ids: readonly string[]): NearestIds[] {
    return nearestHeaderIds((sql) => this.#prepared(sql), section, dir, ids);
  }

  readingScattered<T>(read: () => T): T {
    return readMapped(this.#db, () => this.#readingTogether(read));
  }

  /**
   * `read`'s statements in one read transaction (where none is open): each statement on its own
   * is a transaction of its own, which takes SQLite's locks and gives them back, about two calls to
   * the system (the 100 lookups of a search's short ids: 265 \`fcntl\` calls in the whole run).
   */
  #readingTogether<T>(read: () => T): T {
    try {
      this.#db.exec("BEGIN");
    } catch {
      return read();
    }
    try {
      return read();
    } finally {
      this.#tryExec("COMMIT");
    }
  }

  filesMentioning(section: SectionKey, texts: readonly string[], limit: number): Promise<Set<string> | undefined> {
    return Promise.resolve(filesMentioning(this.#db, section, texts, limit));
  }

  headerlessFiles(section: SectionKey, dir: string): string[] {
    return headerlessFiles(this.#db, section, dir);
  }

  searchDocs(expression: string, offset: number, limit: number, within?: DocScope, bounds?: DocBounds): Promise<IndexedDoc[]> {
    return Promise.resolve(this.#docs.search(expression, offset, limit, within, bounds));
  }

  searchesWithin(within: DocScope): boolean {
    return this.#docs.searchesWithin(within);
  }

  clear(): Promise<void> {
    this.#transaction(() => {
      this.#db.exec(`DELETE FROM records; DELETE FROM ${HEAD_TABLE}; DELETE FROM folders; DELETE FROM full_checks; DELETE FROM ${COVERAGE_TABLE};`);
      this.listRows.clear();
      if (this.supportsDocs) this.#docs.clear();
      this.#files.clear();
    });
    return Promise.resolve();
  }

  describe(): Promise<StoreDescription> {
    const db = this.#db;
    const pages = Number(db.prepare("PRAGMA page_count").get()?.page_count ?? 0);
    const pageSize = Number(db.prepare("PRAGMA page_size").get()?.page_size ?? 0);
    const sections = db.prepare("SELECT section AS name, version, COUNT(*) AS records FROM records GROUP BY section, version ORDER BY section")
      .all().map((r) => ({ name: r.name as string, version: Number(r.version), records: Number(r.records) }));
    const docs = this.#docs.count();
    return Promise.resolve({ kind: this.kind, location: this.location, bytes: pages * pageSize, sections, docs });
  }

  /**
   * What SQLite's `quick_check` finds wrong with the file (it reads every page), or null when
   * nothing: for a rebuild, which must not keep a damaged file.
   */
  damage(): string | null {
    try {
      const rows = this.#db.prepare("PRAGMA quick_check").values();
      const found = rows.map((row) => String(row[0])).filter((line) => line !== "ok");
      return found.length === 0 ? null : found.slice(0, 3).join("; ");
    } catch (error) {
      return (error as Error).message;
    }
  }

  close(): void {
    this.#db.close();
  }
}

/** A state as the records' table keeps it: JSON, deflated where its section is packed. */
function stored(section: SectionKey, state: DigestState<unknown>): string | Uint8Array {
  return packState(section, JSON.stringify(encodeState(section, state)));
}

/** `work`'s value, once `section`'s packing is loaded where it is packed (`readyToPack`); else at once. */
function afterPacking<T>(section: SectionKey, work: () => T): Promise<T> {
  const loading = readyToPack(section);
  return loading ? loading.then(work) : Promise.resolve(work());
}
