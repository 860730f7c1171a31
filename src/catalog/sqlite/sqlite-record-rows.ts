/**
 * How the SQLite catalog's records come back from their rows: the columns a load selects, the
 * join that gives each record its path, the decoding that leaves out a record it cannot trust,
 * and the reads (a section whole or by paths, stamps, rows by their ids).
 * @module
 */
import type { CatalogRecord, HeaderStamp, RecordStamp, SectionKey, StoredRow } from "../store.ts";
import { decodeState, recordProblem } from "../stored-state.ts";
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";
import { unpackState } from "./sqlite-packed.ts";

/** The columns of a record a load selects. */
export const COLUMNS = "f.path, r.size, r.mtime, r.end_, r.lines, r.head, r.tail, r.header_id, r.state, r.final";
/** Records with their paths, as `r` and `f`. */
export const RECORDS = "records r JOIN files f ON f.id = r.file";

/**
 * Adds the records of `rows` that are sound; one that does not parse or has the wrong shape
 * (`state` 'null', no data) is left out, as if missing, so its file is read again.
 */
export function addRecords(section: SectionKey, records: Map<string, CatalogRecord>, rows: Record<string, unknown>[]): void {
  for (const row of rows) {
    let record: CatalogRecord;
    try {
      record = {
        path: row.path as string,
        size: Number(row.size),
        mtimeMs: Number(row.mtime),
        end: Number(row.end_),
        lines: Number(row.lines),
        headHash: row.head as string,
        tailHash: row.tail as string,
        headerId: (row.header_id as string | null) ?? null,
        state: decodeState(section, JSON.parse(unpackState(row.state)!)),
      };
      const final = unpackState(row.final);
      if (final !== undefined) record.final = decodeState(section, JSON.parse(final));
    } catch {
      continue;
    }
    if (recordProblem(section, record) === null) records.set(record.path, record);
  }
}

/** Records read per query by `loadSection`. */
const LOAD_SLICE = 1000;
/** Paths (or rows) per `IN (…)` list: well below SQLite's limit on parameters. */
const PATHS_PER_QUERY = 500;

/** Every sound record of `section`. */
export function loadSection(db: SqliteDb, section: SectionKey): Map<string, CatalogRecord> {
  const records = new Map<string, CatalogRecord>();
  // A slice at a time, in path order: the rows of one slice are garbage before the next is read,
  // so the rows of the whole section (their states as text) are never all held at once.
  // Through the paths' index (CROSS JOIN keeps that order): by the records' key each slice sorted them all.
  const slice = db.prepare(
    `SELECT ${COLUMNS} FROM files f CROSS JOIN records r ON r.section = ? AND r.file = f.id WHERE r.version = ? AND f.path > ? ORDER BY f.path LIMIT ${LOAD_SLICE}`,
  );
  for (let after = ""; ;) {
    const rows = slice.all(section.name, section.version, after);
    addRecords(section, records, rows);
    if (rows.length < LOAD_SLICE) break;
    after = rows[rows.length - 1].path as string;
  }
  return records;
}

/** The sound records of `section` for those of `paths` that have one. */
export function loadPaths(db: SqliteDb, section: SectionKey, paths: readonly string[]): Map<string, CatalogRecord> {
  const records = new Map<string, CatalogRecord>();
  for (let i = 0; i < paths.length; i += PATHS_PER_QUERY) {
    const some = paths.slice(i, i + PATHS_PER_QUERY);
    // Each path through the paths' index, then its record by key (CROSS JOIN keeps that order): with
    // a hundred paths asked for SQLite would rather walk every record of the section, and a cold
    // build of 25,000 sessions asks 250 times (a fourth of its time).
    const statement = db.prepare(
      `SELECT ${COLUMNS} FROM files f CROSS JOIN records r ON r.section = ? AND r.file = f.id WHERE r.version = ? AND f.path IN (${some.map(() => "?").join(", ")})`,
    );
    addRecords(section, records, statement.all(section.name, section.version, ...some));
  }
  return records;
}

export function loadStamps(db: SqliteDb, section: SectionKey): Map<string, RecordStamp> {
  // The stamps come before the states in each row: a state spilling over to other pages is not read.
  const rows = db.prepare(`SELECT f.path, r.size, r.mtime FROM ${RECORDS} WHERE r.section = ? AND r.version = ?`).values(section.name, section.version);
  return new Map(rows.map(([path, size, mtime]) => [path as string, { size: Number(size), mtimeMs: Number(mtime) }]));
}

export function loadHeaderIds(db: SqliteDb, section: SectionKey): Map<string, HeaderStamp> {
  const rows = db.prepare(`SELECT f.path, r.size, r.mtime, r.header_id FROM ${RECORDS} WHERE r.section = ? AND r.version = ?`).values(section.name, section.version);
  const stamps = new Map<string, HeaderStamp>();
  for (const [path, size, mtime, id] of rows) stamps.set(path as string, { size: Number(size), mtimeMs: Number(mtime), headerId: typeof id === "string" ? id : null });
  return stamps;
}

export function eachStamp(db: SqliteDb, section: SectionKey, visit: (path: string, size: number, mtimeMs: number, headerId: string | null) => void): void {
  // Row by row: the rows of 25,000 records, and a map of them, are never held.
  const rows = db.prepare(`SELECT f.path, r.size, r.mtime, r.header_id FROM ${RECORDS} WHERE r.section = ? AND r.version = ?`).iterate(section.name, section.version);
  for (const row of rows) visit(row.path as string, Number(row.size), Number(row.mtime), typeof row.header_id === "string" ? row.header_id : null);
}

/**
 * The stored states of `rows` (record row ids) of `section`, by row id. `statements` keeps the
 * query for each count of rows, prepared once (a warm `stats` asks 50 slices of 500).
 */
export function loadRows(db: SqliteDb, section: SectionKey, rows: readonly number[], statements: Map<number, SqliteStatement>): Map<number, StoredRow> {
  // By row, in the table itself (by path, its index first, a warm `stats` took twice the time), with its file's number: with its path (a join, a string a row) a third more.
  const found = new Map<number, StoredRow>();
  for (let i = 0; i < rows.length; i += PATHS_PER_QUERY) {
    const some = rows.slice(i, i + PATHS_PER_QUERY);
    let statement = statements.get(some.length);
    if (!statement) {
      // `+section`: with hundreds of rows asked for, SQLite would rather walk the section's index.
      statement = db.prepare(
        `SELECT r.rowid, r.file, coalesce(r.final, r.state) FROM records r WHERE +r.section = ? AND +r.version = ? AND r.rowid IN (${Array(some.length).fill("?").join(", ")})`,
      );
      statements.set(some.length, statement);
    }
    for (const [row, file, stored] of statement.values(section.name, section.version, ...some)) {
      const text = unpackState(stored);
      if (text !== undefined) found.set(Number(row), { file: Number(file), text });
    }
  }
  return found;
}
