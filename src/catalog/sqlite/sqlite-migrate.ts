/**
 * A catalog of layout 3 (every table keyed by path) brought to layout 4 (records, header facts
 * and documents keyed by file number, listing rows without row ids, documents' timestamps as
 * numbers) in place: its records, rows and documents are kept, so the first run after an
 * upgrade does not read every session again (a cold build of 25,000 sessions with their full
 * text takes minutes; this takes seconds).
 * @module
 */
import type { SqliteDb } from "./sqlite-db.ts";

/** A layout-3 text timestamp as `docTime` (sqlite-docs.ts) keeps it: milliseconds where the text is what they give back. */
const MS = "CAST(round((julianday(ts) - 2440587.5) * 86400000.0) AS INTEGER)";
const DOC_TIME = `CASE WHEN ts GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'
  AND strftime('%Y-%m-%dT%H:%M:%fZ', ${MS} / 1000.0, 'unixepoch') = ts THEN ${MS} ELSE ts END`;

/** The listing rows' columns, the same in both layouts. */
const ROW_COLUMNS = "path, version, size, mtime, id, cwd, name, parent, created, modified, messages, first, bad, odd";

/**
 * Moves a layout-3 catalog's tables to layout 4, inside the caller's transaction: true when it
 * did, false when the file is not of layout 3 as expected (the caller then starts afresh).
 * Triggers and the header facts are left for the caller to make anew from the records.
 */
export function migrateFrom3(db: SqliteDb, tables: { records: string; listRows: string; docs: string }): boolean {
  const columns = (table: string) => new Set(db.prepare(`PRAGMA table_info(${table})`).all().map((row) => String(row.name)));
  const records = columns("records");
  if (!records.has("path") || records.has("file") || !columns("files").has("path") || !columns("docs").has("ts")) return false;
  for (const trigger of ["heads_put", "heads_update", "heads_drop", "list_dirty_insert", "list_dirty_update", "list_dirty_delete"]) {
    db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
  }
  db.exec("DROP TABLE IF EXISTS heads");
  db.exec("INSERT OR IGNORE INTO files (path) SELECT path FROM records ORDER BY path");
  db.exec("ALTER TABLE records RENAME TO records_v3");
  db.exec(tables.records);
  db.exec(`INSERT INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state, final)
    SELECT r.section, r.version, f.id, r.size, r.mtime, r.end_, r.lines, r.head, r.tail, r.header_id, r.state, r.final
    FROM records_v3 r JOIN files f ON f.path = r.path ORDER BY r.rowid`);
  db.exec("DROP TABLE records_v3");
  if (columns("list_rows").size > 0) {
    db.exec("ALTER TABLE list_rows RENAME TO list_rows_v3");
    db.exec(tables.listRows);
    db.exec(`INSERT INTO list_rows (${ROW_COLUMNS}) SELECT ${ROW_COLUMNS} FROM list_rows_v3`);
    db.exec("DROP TABLE list_rows_v3");
  }
  // Documents: their timestamps as numbers (a column without a type, so that they stay numbers).
  db.exec("DROP INDEX IF EXISTS docs_file; DROP INDEX IF EXISTS docs_text; ALTER TABLE docs RENAME TO docs_v3");
  db.exec(tables.docs);
  db.exec(`INSERT INTO docs (id, file, off, len, line, ts, role, part, text)
    SELECT id, file, off, len, line, ${DOC_TIME}, role, part, text FROM docs_v3 ORDER BY id`);
  db.exec("DROP TABLE docs_v3");
  return true;
}

/**
 * Adds `column` (with its type) to `table` where the table lacks it, inside the caller's
 * transaction: a column made after the layout, for which no new layout (and no rebuild of every
 * record) is needed. Rows written before, or by an older pi-session that does not name the column,
 * have it NULL, which its readers take as "not known". True when it was added.
 */
export function addColumn(db: SqliteDb, table: string, column: string, type: string): boolean {
  const has = db.prepare(`PRAGMA table_info(${table})`).all().some((row) => String(row.name) === column);
  if (!has) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  return !has;
}
