/**
 * The catalog in one SQLite database: `records` (section, file number → record; paths in `files`), the quick check's
 * `folders`, `full_checks` and coverage (sqlite-coverage.ts), and for search the documents (sqlite-docs.ts: deduplicated texts
 * under a contentless FTS5 index). Each save is one `BEGIN IMMEDIATE` transaction, so
 * concurrent indexers queue.
 * @module
 */
import {
  type CatalogRecord,
  type CatalogStore,
  type Coverage,
  type FolderRecord,
  type FolderSnapshot,
  type HeaderStamp,
  encodeState,
  type IndexedDoc,
  type RecordStamp,
  type StoredRow,
  type SectionChanges,
  type SectionKey,
  type StoredHead,
  type StoreDescription,
} from "../store.ts";
import { LIST_ROW_SECTION, soundListRow } from "../list-row.ts";
import { COVERAGE_TABLE, loadCoverage, setUpCoverage, loadNamesIn, loadRecentStamps, loadStampsIn, countFilesIn, saveCoverage } from "./sqlite-coverage.ts";
import { filesMentioning, headerIdsFrom, headerlessFiles, RECORD_LOOKUP_TABLES } from "./sqlite-record-lookups.ts";
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";
import { FOLDER_INDEX, loadFolders, saveFolders } from "./sqlite-folders.ts";
import { DOC_TABLE_NAMES, DOC_TABLES, ftsTables, SqliteDocs } from "./sqlite-docs.ts";
import { FILE_TABLE, FILE_TABLES, SqliteFiles } from "./sqlite-files.ts";
import { eachHeadOf, HEAD_TABLE, headsOf, setUpHeads } from "./sqlite-heads.ts";
import { addColumn, migrateFrom3 } from "./sqlite-migrate.ts";
import { addRecords, COLUMNS, RECORDS } from "./sqlite-record-rows.ts";
import { ANSWER_TABLE_NAMES, setUpAnswers, SqliteAnswers } from "./sqlite-answers.ts";
import { StaleVersions } from "./sqlite-stale.ts";
import { LIST_ROW_TABLE_NAMES, LIST_ROW_TABLES, SqliteListRows } from "./sqlite-list-rows.ts";

/**
 * 4: records, header facts and documents refer to their file by number (sqlite-files.ts), the
 * listing rows are a table without row ids (keyed by path alone), documents keep their
 * timestamps as numbers where they can (sqlite-docs.ts), and an index of the records' mtimes
 * finds the recent ones (sqlite-coverage.ts). 3: no index of the records' stamps (the table's
 * rows have them before their states); documents point at deduplicated texts (sqlite-docs.ts);
 * folders and full checks (the quick check). An index of the folders' paths, stamps and
 * fingerprints of their names (`folders_digests`, made where missing without a new layout, as
 * the fingerprints' column) gives a quick check its folders without the pages of their names: a
 * folder's row held up to 4 KB of them in its own page, so reading 300 folders' stamps read 300
 * pages (2.7 ms), through the index 8 (0.4 ms).
 */
const SCHEMA = 4;
const TABLES = `
CREATE TABLE IF NOT EXISTS records (
  section TEXT NOT NULL, version INTEGER NOT NULL, file INTEGER NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
  end_ INTEGER NOT NULL, lines INTEGER NOT NULL, head TEXT NOT NULL, tail TEXT NOT NULL, header_id TEXT,
  state TEXT NOT NULL, final TEXT, PRIMARY KEY (section, file));
CREATE TABLE IF NOT EXISTS folders (path TEXT PRIMARY KEY, mtime REAL NOT NULL, listed REAL NOT NULL, names TEXT NOT NULL, digest TEXT);
CREATE TABLE IF NOT EXISTS full_checks (section TEXT PRIMARY KEY, at REAL NOT NULL);`;

/** Records read per query by `load`. */
const LOAD_SLICE = 1000;
/** Paths per `IN (…)` list: well below SQLite's limit on parameters. */
const PATHS_PER_QUERY = 500;

/**
 * Runs `work`, trying again for up to about a second while SQLite says the file is locked or
 * busy (another process setting up the same new file).
 */
function whileLocked(work: () => void): void {
  for (let attempt = 0; ; attempt++) {
    try {
      return work();
    } catch (error) {
      if (attempt >= 50 || !/locked|busy/i.test(String((error as Error)?.message))) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

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
      load: (section, paths) => this.#loadPaths(section, paths),
      transaction: (work) => this.#transaction(work),
    });
    this.answers = new SqliteAnswers(db, (work) => this.#transaction(work));
    this.kind = `sqlite (${db.driver})`;
    db.exec("PRAGMA busy_timeout = 5000");
    // Switching a new file to WAL takes a lock that the busy timeout does not wait for.
    whileLocked(() => db.exec("PRAGMA journal_mode = WAL"));
    db.exec("PRAGMA synchronous = NORMAL");
    // Each checkpoint of the log waits for the disk twice (fsync): a cold list of 25,000 sessions
    // made 100 of them at the default 1,000 pages, 25 at 4,000 (16 MB of log at most, gone at close).
    db.exec("PRAGMA wal_autocheckpoint = 4000");
    // No memory map: every page a run touched through one counted in its resident memory (a warm
    // `list --all` of 25,000 sessions: 30 MB more at its peak), for no time measured in return.
    db.exec("PRAGMA mmap_size = 0");
    // One transaction, so that two processes opening a new file set it up one after the other.
    let fullText = false;
    let migrated = false;
    whileLocked(() =>
      this.#transaction(() => {
        const version = Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
        if (version === 3 && migrateFrom3(db, { records: TABLES, listRows: LIST_ROW_TABLES, docs: DOC_TABLES })) {
          db.exec(`PRAGMA user_version = ${SCHEMA}`);
          migrated = true;
        } else if (version !== SCHEMA) {
          for (const table of [...DOC_TABLE_NAMES, ...LIST_ROW_TABLE_NAMES, ...ANSWER_TABLE_NAMES, HEAD_TABLE, COVERAGE_TABLE, "records", FILE_TABLE, "folders", "full_checks"]) db.exec(`DROP TABLE IF EXISTS ${table}`);
          db.exec(`PRAGMA user_version = ${SCHEMA}`);
        }
        db.exec(FILE_TABLES);
        db.exec(TABLES);
        addColumn(db, "folders", "digest", "TEXT");
        db.exec(FOLDER_INDEX);
        setUpCoverage(db);
        db.exec(RECORD_LOOKUP_TABLES);
        db.exec(DOC_TABLES);
        setUpHeads(db);
        setUpAnswers(db);
        // Rows came after schema 3: a file without them gets them made from its records, at the next sync.
        const hadRows = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE name = 'list_rows'").get() !== undefined;
        db.exec(LIST_ROW_TABLES);
        if (!hadRows) this.listRows.markAll();
        fullText = ftsTables().some((sql) => this.#tryExec(sql));
      })
    );
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
    const records = new Map<string, CatalogRecord>();
    // A slice at a time, in path order: the rows of one slice are garbage before the next is read,
    // so the rows of the whole section (their states as text) are never all held at once.
    // Through the paths' index (CROSS JOIN keeps that order): by the records' key each slice sorted them all.
    const slice = this.#db.prepare(
      `SELECT ${COLUMNS} FROM files f CROSS JOIN records r ON r.section = ? AND r.file = f.id WHERE r.version = ? AND f.path > ? ORDER BY f.path LIMIT ${LOAD_SLICE}`,
    );
    for (let after = ""; ;) {
      const rows = slice.all(section.name, section.version, after);
      addRecords(section, records, rows);
      if (rows.length < LOAD_SLICE) break;
      after = rows[rows.length - 1].path as string;
    }
    return Promise.resolve(records);
  }

  loadStamps(section: SectionKey): Promise<Map<string, RecordStamp>> {
    // The stamps come before the states in each row: a state spilling over to other pages is not read.
    const rows = this.#db.prepare(`SELECT f.path, r.size, r.mtime FROM ${RECORDS} WHERE r.section = ? AND r.version = ?`).values(section.name, section.version);
    return Promise.resolve(new Map(rows.map(([path, size, mtime]) => [path as string, { size: Number(size), mtimeMs: Number(mtime) }])));
  }

  loadHeaderIds(section: SectionKey): Promise<Map<string, HeaderStamp>> {
    const rows = this.#db.prepare(`SELECT f.path, r.size, r.mtime, r.header_id FROM ${RECORDS} WHERE r.section = ? AND r.version = ?`).values(section.name, section.version);
    const stamps = new Map<string, HeaderStamp>();
    for (const [path, size, mtime, id] of rows) stamps.set(path as string, { size: Number(size), mtimeMs: Number(mtime), headerId: typeof id === "string" ? id : null });
    return Promise.resolve(stamps);
  }

  eachStamp(section: SectionKey, visit: (path: string, size: number, mtimeMs: number, headerId: string | null) => void): Promise<void> {
    // Row by row: the rows of 25,000 records, and a map of them, are never held.
    const rows = this.#db.prepare(`SELECT f.path, r.size, r.mtime, r.header_id FROM ${RECORDS} WHERE r.section = ? AND r.version = ?`).iterate(section.name, section.version);
    for (const row of rows) visit(row.path as string, Number(row.size), Number(row.mtime), typeof row.header_id === "string" ? row.header_id : null);
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
    // By row, in the table itself (by path, its index first, a warm `stats` took twice the time), with its file's number: with its path (a join, a string a row) a third more.
    const found = new Map<number, StoredRow>();
    for (let i = 0; i < rows.length; i += PATHS_PER_QUERY) {
      const some = rows.slice(i, i + PATHS_PER_QUERY);
      for (const [row, file, text] of this.#rowsStatement(some.length).values(section.name, section.version, ...some)) {
        if (typeof text === "string") found.set(Number(row), { file: Number(file), text });
      }
    }
    return Promise.resolve(found);
  }

  /** The query of `loadRows` for `count` rows, prepared once per count (a warm `stats` asks 50 slices of 500). */
  #rowsStatement(count: number): SqliteStatement {
    let statement = this.#rowStatements.get(count);
    if (!statement) {
      // `+section`: with hundreds of rows asked for, SQLite would rather walk the section's index.
      statement = this.#db.prepare(
        `SELECT r.rowid, r.file, coalesce(r.final, r.state) FROM records r WHERE +r.section = ? AND +r.version = ? AND r.rowid IN (${Array(count).fill("?").join(", ")})`,
      );
      this.#rowStatements.set(count, statement);
    }
    return statement;
  }

  loadPaths(section: SectionKey, paths: readonly string[]): Promise<Map<string, CatalogRecord>> {
    return Promise.resolve(this.#loadPaths(section, paths));
  }

  #loadPaths(section: SectionKey, paths: readonly string[]): Map<string, CatalogRecord> {
    const records = new Map<string, CatalogRecord>();
    for (let i = 0; i < paths.length; i += PATHS_PER_QUERY) {
      const some = paths.slice(i, i + PATHS_PER_QUERY);
      // Each path through the paths' index, then its record by key (CROSS JOIN keeps that order): with
      // a hundred paths asked for SQLite would rather walk every record of the section, and a cold
      // build of 25,000 sessions asks 250 times (a fourth of its time).
      const statement = this.#db.prepare(
        `SELECT ${COLUMNS} FROM files f CROSS JOIN records r ON r.section = ? AND r.file = f.id WHERE r.version = ? AND f.path IN (${some.map(() => "?").join(", ")})`,
      );
      addRecords(section, records, statement.all(section.name, section.version, ...some));
    }
    return records;
  }

  save(section: SectionKey, changes: SectionChanges): Promise<void> {
    const db = this.#db;
    this.#transaction(() => {
      const stale = this.#stale.drop(db, section);
      if (section.name === "docs" && stale > 0 && this.supportsDocs) this.#docs.clear();
      const put = this.#prepared(
        "INSERT OR REPLACE INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state, final) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const r of changes.put) {
        put.run(section.name, section.version, this.#files.id(r.path, true)!, r.size, r.mtimeMs, r.end, r.lines, r.headHash, r.tailHash, r.headerId, JSON.stringify(encodeState(section, r.state)), r.final ? JSON.stringify(encodeState(section, r.final)) : null);
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
    return Promise.resolve();
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

  headerIdsFrom(section: SectionKey, dir: string, from: string, direction: "down" | "up"): Iterable<[string, string]> {
    return headerIdsFrom(this.#db, section, dir, from, direction);
  }

  filesMentioning(section: SectionKey, text: string, limit: number): Promise<Set<string> | undefined> {
    return Promise.resolve(filesMentioning(this.#db, section, text, limit));
  }

  headerlessFiles(section: SectionKey, dir: string): string[] {
    return headerlessFiles(this.#db, section, dir);
  }

  searchDocs(expression: string, offset: number, limit: number): Promise<IndexedDoc[]> {
    return Promise.resolve(this.#docs.search(expression, offset, limit));
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
