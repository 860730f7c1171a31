/**
 * The header facts of each usage record, kept beside the records in a small table of their own
 * (`heads`, keyed by file number: sqlite-files.ts), for a reader that puts sessions in order before it loads them (`stats`): reading
 * them from the states themselves meant reading every state in full (27 MB of them for 25,000
 * sessions, one of 6.5 MB) for a few bytes each. Triggers on `records` keep the table as the
 * records are, whichever program writes them; a database made before it gets it filled once.
 * @module
 */
import type { StoredHead } from "../store.ts";
import type { SqliteDb } from "./sqlite-db.ts";

/** The sections whose header facts are kept apart. */
const SECTIONS = "('usage')";

/**
 * The facts of a state `s`, as SQL: `kind` 1 for a session (a header object, not rejected), 0
 * for a file that is not one (no header, or rejected), -1 for a state of the wrong shape; the
 * header's timestamp and parentSession where they are strings; the bad header's note.
 */
const FACTS = `
  CASE WHEN NOT json_valid(s) THEN -1
    WHEN json_type(s, '$.rejected') NOT IN ('true', 'false') OR json_type(s, '$.rejected') IS NULL THEN -1
    WHEN json_type(s, '$.header') = 'object' THEN (json_type(s, '$.rejected') = 'false')
    WHEN json_type(s, '$.header') = 'null' THEN 0
    ELSE -1 END,
  CASE WHEN json_valid(s) AND json_type(s, '$.header.timestamp') = 'text' THEN json_extract(s, '$.header.timestamp') END,
  CASE WHEN json_valid(s) AND json_type(s, '$.header.parentSession') = 'text' THEN json_extract(s, '$.header.parentSession') END,
  CASE WHEN json_valid(s) AND json_type(s, '$.badHeader') = 'text' THEN json_extract(s, '$.badHeader') END`;

const PUT = (row: string) =>
  `INSERT OR REPLACE INTO heads (section, file, version, record, kind, created, parent, bad)
   SELECT ${row}.section, ${row}.file, ${row}.version, ${row}.rowid, ${FACTS} FROM (SELECT coalesce(${row}.final, ${row}.state) AS s)`;

/** Tables and triggers; `heads_put` is made last, so its presence says the rest is there. */
const HEADS = `
CREATE TABLE IF NOT EXISTS heads (
  section TEXT NOT NULL, file INTEGER NOT NULL, version INTEGER NOT NULL, record INTEGER NOT NULL,
  kind INTEGER NOT NULL, created TEXT, parent TEXT, bad TEXT, PRIMARY KEY (section, file)) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS heads_update AFTER UPDATE ON records WHEN new.section IN ${SECTIONS} BEGIN ${PUT("new")}; END;
CREATE TRIGGER IF NOT EXISTS heads_drop AFTER DELETE ON records WHEN old.section IN ${SECTIONS} BEGIN
  DELETE FROM heads WHERE section = old.section AND file = old.file AND record = old.rowid; END;
CREATE TRIGGER IF NOT EXISTS heads_put AFTER INSERT ON records WHEN new.section IN ${SECTIONS} BEGIN ${PUT("new")}; END;`;

/** The table's name, for a schema change that drops every table. */
export const HEAD_TABLE = "heads";

/**
 * Makes the table and its triggers where they are missing, and then fills the table from the
 * records already there. Call inside the transaction that sets the schema up.
 */
export function setUpHeads(db: SqliteDb): void {
  if (db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'trigger' AND name = 'heads_put'").get()) return;
  db.exec(HEADS);
  db.exec("DELETE FROM heads");
  db.exec(`INSERT OR REPLACE INTO heads (section, file, version, record, kind, created, parent, bad)
    SELECT section, file, version, rowid, ${FACTS}
    FROM (SELECT section, file, version, rowid, coalesce(final, state) AS s FROM records WHERE section IN ${SECTIONS})`);
}

/** The kept facts of `section`'s records (see `CatalogStore.loadHeads`). */
export function headsOf(db: SqliteDb, section: { name: string; version: number }): StoredHead[] {
  // In the paths' order, as when the table was keyed by path: a reader's notes come in that order.
  // Through the paths' index (CROSS JOIN keeps that order), not sorted after: a fourth of the time.
  // A row at a time: all of them at once (an array per row) was 25,000 arrays beside the heads.
  const rows = db.prepare(
    "SELECT h.record, f.path, h.kind, h.created, h.parent, h.bad FROM files f CROSS JOIN heads h ON h.section = ? AND h.file = f.id WHERE h.version = ? ORDER BY f.path",
  ).iterate(section.name, section.version);
  const heads: StoredHead[] = [];
  for (const { record, path, kind, created, parent, bad } of rows) {
    if (Number(kind) < 0) throw new SyntaxError("a stored state's header or rejected flag has the wrong shape");
    const head: StoredHead = { path: String(path), row: Number(record), session: Number(kind) === 1 };
    if (typeof created === "string") head.created = created;
    if (typeof parent === "string") head.parentSession = parent;
    if (typeof bad === "string") head.badHeader = bad;
    heads.push(head);
  }
  return heads;
}
