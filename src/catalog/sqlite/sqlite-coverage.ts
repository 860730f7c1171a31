/**
 * The SQLite store's side of the quick check without stamps (covered-check.ts): each section's
 * coverage (`Coverage`: folders whose records are exactly their session files, and their mtimes
 * then), the records modified lately (an index of the records' mtimes alone, 1.3 MB at 75,000
 * records: the few files a quick check stats, found without walking 25,000 records; on mtime
 * alone so that no query by section and file takes it), and the stamps of a few folders.
 *
 * Triggers drop a section's coverage whenever a record of it is added for a new file or removed,
 * and a folder's fingerprint of its files whenever a record in it is written, by anyone (an older
 * pi-session too): coverage only ever claims what no write has undone.
 * @module
 */
import type { Coverage, RecordStamp, SectionKey } from "../store.ts";
import { readMapped, type SqliteDb } from "./sqlite-db.ts";
import { addColumn } from "./sqlite-migrate.ts";
import { sqlFolderOf } from "./sqlite-paths.ts";

export const COVERAGE_TABLE = "covered";

/**
 * The records' stamps by their key: a full check finds each file's stamp in it without reading
 * its record (whose page holds its state too). 3.1 MB at 100,000 records (the 25,000-session
 * catalog with its full text: 1.4% of its 218 MB); made at the first open of a catalog without it.
 */
const STAMP_INDEX = "records_stamps";

/**
 * `section` is `name@version` (folder-check.ts's `checkKey`), as in `full_checks`; `stamps` the
 * fingerprint of the folder's files its records were last found current for (NULL: none known;
 * a column made after the table, added where missing).
 */
const COVERAGE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${COVERAGE_TABLE} (section TEXT NOT NULL, folder TEXT NOT NULL, mtime REAL NOT NULL, stamps TEXT, PRIMARY KEY (section, folder));`;

/** The folder a record's file is directly in, as coverage names it (no separator at its end). */
const FOLDER_OF_FILE = `(SELECT ${sqlFolderOf("path")} FROM files WHERE id = new.file)`;

/**
 * Triggers: a record written for a file ends the fingerprint of its folder (one written over,
 * `INSERT OR REPLACE`, as a new one; an update, never made, ends those of its section). The
 * folder is worked out only where the section keeps a fingerprint (`covered_stamped`, an index
 * of those rows alone): worked out by `rtrim` for each of 25,000 records, it added 1 s to their
 * save (`covered_stamps_insert`, the trigger before this one, is dropped).
 */
const COVERAGE_TRIGGERS = `
CREATE INDEX IF NOT EXISTS records_recent ON records (mtime);
CREATE INDEX IF NOT EXISTS ${STAMP_INDEX} ON records (section, file, version, size, mtime);
CREATE TRIGGER IF NOT EXISTS covered_insert BEFORE INSERT ON records
  WHEN NOT EXISTS (SELECT 1 FROM records WHERE section = new.section AND file = new.file)
  BEGIN DELETE FROM ${COVERAGE_TABLE} WHERE section = new.section || '@' || new.version; END;
CREATE TRIGGER IF NOT EXISTS covered_update AFTER UPDATE OF section, version, file ON records
  BEGIN DELETE FROM ${COVERAGE_TABLE} WHERE section IN (old.section || '@' || old.version, new.section || '@' || new.version); END;
CREATE TRIGGER IF NOT EXISTS covered_delete AFTER DELETE ON records
  BEGIN DELETE FROM ${COVERAGE_TABLE} WHERE section = old.section || '@' || old.version; END;
CREATE INDEX IF NOT EXISTS covered_stamped ON ${COVERAGE_TABLE} (section) WHERE stamps IS NOT NULL;
DROP TRIGGER IF EXISTS covered_stamps_insert;
CREATE TRIGGER IF NOT EXISTS covered_stamps_put AFTER INSERT ON records
  WHEN EXISTS (SELECT 1 FROM ${COVERAGE_TABLE} WHERE section = new.section || '@' || new.version AND stamps IS NOT NULL)
  BEGIN UPDATE ${COVERAGE_TABLE} SET stamps = NULL WHERE section = new.section || '@' || new.version AND folder = ${FOLDER_OF_FILE} AND stamps IS NOT NULL; END;
CREATE TRIGGER IF NOT EXISTS covered_stamps_update AFTER UPDATE ON records
  BEGIN UPDATE ${COVERAGE_TABLE} SET stamps = NULL WHERE section IN (old.section || '@' || old.version, new.section || '@' || new.version) AND stamps IS NOT NULL; END;`;

/** Makes the coverage's table (with its fingerprints' column), index and triggers, inside the caller's transaction. */
export function setUpCoverage(db: SqliteDb): void {
  db.exec(COVERAGE_TABLE_SQL);
  addColumn(db, COVERAGE_TABLE, "stamps", "TEXT");
  db.exec(COVERAGE_TRIGGERS);
}

function key(section: SectionKey): string {
  return `${section.name}@${section.version}`;
}

/** What changes when another connection commits (SQLite's `data_version`). */
export function dataVersion(db: SqliteDb): number {
  return Number(db.prepare("PRAGMA data_version").get()?.data_version ?? 0);
}

export function loadCoverage(db: SqliteDb, section: SectionKey): Coverage {
  const token = dataVersion(db);
  const folders = new Map<string, number>();
  const stamps = new Map<string, string>();
  for (const [folder, mtime, digest] of db.prepare(`SELECT folder, mtime, stamps FROM ${COVERAGE_TABLE} WHERE section = ?`).values(key(section))) {
    folders.set(String(folder), Number(mtime));
    if (typeof digest === "string") stamps.set(String(folder), digest);
  }
  return { folders, token, stamps };
}

/** Inside a write transaction: false (nothing saved) when another connection committed since `token`. */
export function saveCoverage(db: SqliteDb, section: SectionKey, put: ReadonlyMap<string, number>, drop: readonly string[], token: number, stamps: ReadonlyMap<string, string> = new Map()): boolean {
  if (dataVersion(db) !== token) return false;
  const set = db.prepare(`INSERT OR REPLACE INTO ${COVERAGE_TABLE} (section, folder, mtime, stamps) VALUES (?, ?, ?, ?)`);
  for (const [folder, mtime] of put) set.run(key(section), folder, mtime, stamps.get(folder) ?? null);
  const unset = db.prepare(`DELETE FROM ${COVERAGE_TABLE} WHERE section = ? AND folder = ?`);
  for (const folder of drop) unset.run(key(section), folder);
  return true;
}

function stampsOf(rows: unknown[][], into = new Map<string, RecordStamp>()): Map<string, RecordStamp> {
  for (const [path, size, mtime] of rows) into.set(path as string, { size: Number(size), mtimeMs: Number(mtime) });
  return into;
}

export function loadRecentStamps(db: SqliteDb, section: SectionKey, since: number): Map<string, RecordStamp> {
  // `+`: by the index of mtimes, not by the section's (which would walk every record of it).
  const rows = db.prepare("SELECT f.path, r.size, r.mtime FROM records r JOIN files f ON f.id = r.file WHERE +r.section = ? AND +r.version = ? AND r.mtime >= ?").values(section.name, section.version, since);
  return stampsOf(rows);
}

/** The range of paths under `folder` (at any depth): '0' follows '/'. */
function under(folder: string): [string, string] {
  const base = folder.endsWith("/") ? folder.slice(0, -1) : folder;
  return [base + "/", base + "0"];
}

// Each count walks a whole index (hundreds of pages at 25,000 sessions), through a memory map
// (`readMapped`): 8 → 4 ms (paths) and 11 → 1.4 ms (records), where a page read with a call of
// its own costs this VM 10-20 µs.

export function countFilesIn(db: SqliteDb, dir: string): number {
  // The index of paths alone: no record is looked up.
  return Number(readMapped(db, () => db.prepare("SELECT count(*) AS n FROM files WHERE path >= ? AND path < ?").get(...under(dir)))?.n ?? 0);
}

export function countRecords(db: SqliteDb, section: SectionKey): number {
  // The records' key alone (section, file): 4 ms at 25,000 sessions, where counting their paths took 15.
  return Number(readMapped(db, () => db.prepare("SELECT count(*) AS n FROM records WHERE section = ?").get(section.name))?.n ?? 0);
}

/** The stamps of the records of `section` under a range of paths (`under`). */
export const STAMPS_IN =
  "SELECT f.path, r.size, r.mtime FROM files f CROSS JOIN records r ON r.file = f.id WHERE r.section = ? AND r.version = ? AND f.path >= ? AND f.path < ?";

/**
 * `prepare`: the store's statement cache (a full check asks for each of 300 folders in turn).
 * '0' follows '/': the range holds exactly the paths that start with the folder and a slash,
 * walked in the files' index of paths, each one's stamp found in `STAMP_INDEX` by its key, the
 * record itself not read: the stamps of 25,000 sessions in 300 folders came in 24 ms of CPU, not
 * 41 (the minimum of 8 passes in one process, by hand, the machine loaded).
 */
export function loadStampsIn(db: SqliteDb, section: SectionKey, folders: readonly string[], prepare = (sql: string) => db.prepare(sql)): Map<string, RecordStamp> {
  const stamps = new Map<string, RecordStamp>();
  const range = prepare(STAMPS_IN);
  for (const folder of folders) stampsOf(range.values(section.name, section.version, ...under(folder)), stamps);
  return stamps;
}

/** `STAMPS_IN` with each path past the range's start (`?3`: the folder and its separator). */
export const NAMES_IN =
  "SELECT substr(f.path, length(?3) + 1), r.size, r.mtime FROM files f CROSS JOIN records r ON r.file = f.id WHERE r.section = ?1 AND r.version = ?2 AND f.path >= ?3 AND f.path < ?4";

/**
 * `loadStampsIn` of one folder, each stamp by its path past the folder and its separator: a full
 * check compares them with the names it listed, where whole paths were a string of 125
 * characters and more for each of 25,000 sessions (and another, made to look each one up).
 */
export function loadNamesIn(db: SqliteDb, section: SectionKey, folder: string, prepare = (sql: string) => db.prepare(sql)): Map<string, RecordStamp> {
  return stampsOf(prepare(NAMES_IN).values(section.name, section.version, ...under(folder)));
}
