/**
 * The SQLite catalog's layout and how a file is set up for it: the connection's settings, the
 * tables of every part (made where missing, columns added in place), and a catalog of an older
 * layout moved to this one, or started afresh.
 * @module
 */
import { setUpAnswers, ANSWER_TABLE_NAMES } from "./sqlite-answers.ts";
import { COVERAGE_TABLE, setUpCoverage } from "./sqlite-coverage.ts";
import type { SqliteDb } from "./sqlite-db.ts";
import { DOC_TABLE_NAMES, DOC_TABLES, dropOtherFullText, ftsTables } from "./sqlite-docs.ts";
import { FILE_TABLE, FILE_TABLES } from "./sqlite-files.ts";
import { countFolderNames, FOLDER_INDEX } from "./sqlite-folders.ts";
import { HEAD_TABLE, setUpHeads } from "./sqlite-heads.ts";
import { LIST_ROW_TABLE_NAMES, LIST_ROW_TABLES } from "./sqlite-list-rows.ts";
import { addColumn, migrateFrom3 } from "./sqlite-migrate.ts";
import { RECORD_LOOKUP_TABLES } from "./sqlite-record-lookups.ts";

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

/**
 * Marks a file set up by this build's tables, indexes and triggers (SQLite's `application_id`),
 * with `SCHEMA`: a file that has both needs nothing made, and is opened without the setup's
 * write transaction (which waited for any other process writing the catalog, and took 5 ms of a
 * warm command). Change it with any statement of the setup: tests/catalog/sqlite-schema.test.ts
 * fails until then. A file set up by another build (older or newer) is set up again, and marked so.
 */
export const LAYOUT_MARK = 0x70690403;
const TABLES = `
CREATE TABLE IF NOT EXISTS records (
  section TEXT NOT NULL, version INTEGER NOT NULL, file INTEGER NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
  end_ INTEGER NOT NULL, lines INTEGER NOT NULL, head TEXT NOT NULL, tail TEXT NOT NULL, header_id TEXT,
  state TEXT NOT NULL, final TEXT, PRIMARY KEY (section, file));
CREATE TABLE IF NOT EXISTS folders (path TEXT PRIMARY KEY, mtime REAL NOT NULL, listed REAL NOT NULL, names TEXT NOT NULL, digest TEXT);
CREATE TABLE IF NOT EXISTS full_checks (section TEXT PRIMARY KEY, at REAL NOT NULL);`;

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
 * True when the file was set up by this build (`SCHEMA` and `LAYOUT_MARK`) and its full-text
 * index can be read: nothing to make. A runtime without FTS5 sets the file up each time, as a
 * runtime that has it may have made the index since (or may make it now).
 */
function setUp(db: SqliteDb, host: SchemaHost): boolean {
  try {
    const mark = (name: string) => Number(db.prepare(`PRAGMA ${name}`).get()?.[name] ?? 0);
    return mark("user_version") === SCHEMA && mark("application_id") === LAYOUT_MARK && host.tryExec("SELECT 1 FROM docs_fts LIMIT 0");
  } catch {
    return false;
  }
}

/** What the setup needs of its store: a transaction, the listing rows to mark for making, a statement tried. */
export interface SchemaHost {
  transaction(work: () => void): void;
  /** Marks every record's listing row to be made (a file from before the rows). */
  markRows(): void;
  /** Runs `sql`; false when SQLite refuses it (no FTS5). */
  tryExec(sql: string): boolean;
}

/**
 * Sets up the connection and the file's tables; `fullText` when SQLite has FTS5 (the documents'
 * index was made), `migrated` when a catalog of layout 3 was moved to this one (its old tables'
 * pages are then free in the file: worth a compaction).
 */
export function setUpSchema(db: SqliteDb, host: SchemaHost): { fullText: boolean; migrated: boolean } {
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
  if (setUp(db, host)) return { fullText: true, migrated: false };
  // One transaction, so that two processes opening a new file set it up one after the other.
  let fullText = false;
  let migrated = false;
  whileLocked(() =>
    host.transaction(() => {
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
      if (addColumn(db, "folders", "count", "INTEGER")) countFolderNames(db);
      db.exec(FOLDER_INDEX);
      setUpCoverage(db);
      db.exec(RECORD_LOOKUP_TABLES);
      dropOtherFullText(db);
      db.exec(DOC_TABLES);
      setUpHeads(db);
      setUpAnswers(db);
      // Rows came after schema 3: a file without them gets them made from its records, at the next sync.
      const hadRows = db.prepare("SELECT 1 AS found FROM sqlite_master WHERE name = 'list_rows'").get() !== undefined;
      db.exec(LIST_ROW_TABLES);
      if (!hadRows) host.markRows();
      fullText = ftsTables().some((sql) => host.tryExec(sql));
      db.exec(`PRAGMA application_id = ${LAYOUT_MARK}`);
    })
  );
  return { fullText, migrated };
}
