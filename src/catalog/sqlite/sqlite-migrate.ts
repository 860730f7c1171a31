/**
 * A catalog of layout 3 (every table keyed by path) brought to layout 4 (records, header facts
 * and documents keyed by file number, listing rows without row ids) in place: its records, rows
 * and documents are kept, so the first run after an upgrade does not read every session again
 * (a cold build of 25,000 sessions with their full text takes minutes; this takes seconds).
 * @module
 */
import type { SqliteDb } from "./sqlite-db.ts";

/** The listing rows' columns, the same in both layouts. */
const ROW_COLUMNS = "path, version, size, mtime, id, cwd, name, parent, created, modified, messages, first, bad, odd";

/**
 * Moves a layout-3 catalog's tables to layout 4, inside the caller's transaction: true when it
 * did, false when the file is not of layout 3 as expected (the caller then starts afresh).
 * Triggers and the header facts are left for the caller to make anew from the records.
 */
export function migrateFrom3(db: SqliteDb, recordTables: string, listRowTables: string): boolean {
  const columns = (table: string) => new Set(db.prepare(`PRAGMA table_info(${table})`).all().map((row) => String(row.name)));
  const records = columns("records");
  if (!records.has("path") || records.has("file") || !columns("files").has("path")) return false;
  for (const trigger of ["heads_put", "heads_update", "heads_drop", "list_dirty_insert", "list_dirty_update", "list_dirty_delete"]) {
    db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
  }
  db.exec("DROP TABLE IF EXISTS heads");
  db.exec("INSERT OR IGNORE INTO files (path) SELECT path FROM records ORDER BY path");
  db.exec("ALTER TABLE records RENAME TO records_v3");
  db.exec(recordTables);
  db.exec(`INSERT INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state, final)
    SELECT r.section, r.version, f.id, r.size, r.mtime, r.end_, r.lines, r.head, r.tail, r.header_id, r.state, r.final
    FROM records_v3 r JOIN files f ON f.path = r.path ORDER BY r.rowid`);
  db.exec("DROP TABLE records_v3");
  if (columns("list_rows").size > 0) {
    db.exec("ALTER TABLE list_rows RENAME TO list_rows_v3");
    db.exec(listRowTables);
    db.exec(`INSERT INTO list_rows (${ROW_COLUMNS}) SELECT ${ROW_COLUMNS} FROM list_rows_v3`);
    db.exec("DROP TABLE list_rows_v3");
  }
  return true;
}
