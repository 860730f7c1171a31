/**
 * Each folder's table columns for `list` (`SqliteListRows.tableColumns`), kept in the catalog
 * (`list_runs`) till a row of the folder is written: the ids as one text, the numbers as one
 * run of doubles, the titles as one run of bytes. Made from the rows each time, the runs of
 * 25,000 sessions took a warm `list --all` about 100 ms (12.7 MB of rows read, and joined by
 * SQLite); read, 40-50 ms. Triggers on `list_rows` drop a folder's kept runs when any row of it
 * is written, by anyone (an older pi-session too); they look for the row's folder only while
 * runs are kept at all, so a cold build, which writes every row, never does.
 * @module
 */
import { readMapped, type SqliteDb, type SqliteStatement } from "./sqlite-db.ts";
import { sqlFolderOf } from "./sqlite-paths.ts";

/** The folder a listing row's file is directly in, of the row `row` (`new` or `old` in a trigger). */
const folderOf = (row: string) => sqlFolderOf(`${row}.path`);

/** `numbers`: the sessions' id lengths, times, message counts and title lengths, `n` of each, as doubles in the machine's byte order. */
export const LIST_RUN_TABLES = `
CREATE TABLE IF NOT EXISTS list_runs (folder TEXT NOT NULL, version INTEGER NOT NULL, n INTEGER NOT NULL, ids TEXT NOT NULL,
  numbers BLOB NOT NULL, titles BLOB NOT NULL, low_cwd TEXT, high_cwd TEXT, odd INTEGER NOT NULL, PRIMARY KEY (folder, version));
CREATE TRIGGER IF NOT EXISTS list_runs_put AFTER INSERT ON list_rows WHEN EXISTS (SELECT 1 FROM list_runs)
  BEGIN DELETE FROM list_runs WHERE folder = ${folderOf("new")}; END;
CREATE TRIGGER IF NOT EXISTS list_runs_update AFTER UPDATE ON list_rows WHEN EXISTS (SELECT 1 FROM list_runs)
  BEGIN DELETE FROM list_runs WHERE folder IN (${folderOf("old")}, ${folderOf("new")}); END;
CREATE TRIGGER IF NOT EXISTS list_runs_drop AFTER DELETE ON list_rows WHEN EXISTS (SELECT 1 FROM list_runs)
  BEGIN DELETE FROM list_runs WHERE folder = ${folderOf("old")}; END;`;

/**
 * Rows written at once from which every kept run is dropped first (they are made again at the
 * next listing that asks, 60-120 ms at 25,000 sessions), so that the triggers do not look for
 * each row's folder: while any runs are kept that costs about 20 µs a row (25,000 rows rewritten
 * in one Bun process: 545 ms, 49 without runs), as when a new version of the rows is made.
 */
export const BULK_ROWS = 256;

/** Drops every kept run before `rows` rows are written, where they are a bulk write (`BULK_ROWS`). */
export function dropRunsForBulk(db: SqliteDb, rows: number): void {
  if (rows >= BULK_ROWS) db.exec("DELETE FROM list_runs");
}

/** The sessions of one folder, by path, as runs. */
export interface FolderRuns {
  n: number;
  /** The ids one after the other. */
  ids: string;
  /** `n` id lengths, then `n` times, `n` message counts and `n` title lengths (in bytes). */
  numbers: Float64Array;
  /** The titles' UTF-8 bytes one after the other. */
  titles: Uint8Array;
  lowCwd: string | null;
  highCwd: string | null;
  /** A time or count that is not a whole number (never written so: see ListRow.odd). */
  odd: boolean;
}

/** The rows directly in one folder (`?1`), of version `?2`, that are sessions: a range of the table's key, by path. */
export const IN_FOLDER = `FROM list_rows WHERE path >= ?1 || '/' AND path < ?1 || '0' AND version = ?2 AND id IS NOT NULL
  AND instr(substr(path, length(?1) + 2), '/') = 0 ORDER BY path`;

/** A folder's runs as SQLite joins them from its rows (`IN_FOLDER`). */
const RUNS_OF_ROWS = `SELECT count(*), group_concat(id, ''), group_concat(length(id)),
  group_concat(CAST(modified AS INTEGER)), group_concat(CAST(messages AS INTEGER)), group_concat(length(CAST(title AS BLOB))),
  CAST(group_concat(title, '') AS BLOB), min(cwd), max(cwd), total(modified <> CAST(modified AS INTEGER) OR messages <> CAST(messages AS INTEGER))
  FROM (SELECT id, cwd, modified, messages, coalesce(name, first) AS title ${IN_FOLDER})`;

const COLUMNS = "n, ids, numbers, titles, low_cwd, high_cwd, odd";

/** Doubles as this machine lays them out are kept only where that is little-endian (every runtime's usual platform). */
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

/** The kept runs of one database. */
export class KeptRuns {
  #db: SqliteDb;
  #transaction: (work: () => void) => void;
  #read: SqliteStatement | undefined;
  #make: SqliteStatement | undefined;
  #keep: SqliteStatement | undefined;

  constructor(db: SqliteDb, transaction: (work: () => void) => void) {
    this.#db = db;
    this.#transaction = transaction;
  }

  /**
   * The runs of each folder (undefined for one whose rows cannot be put so: the caller reads
   * them otherwise): kept ones read, the others made from the rows and kept, in one transaction
   * (no write of another process comes between), or only made where the catalog cannot be written.
   */
  of(version: number, folders: readonly string[]): Map<string, FolderRuns | undefined> {
    const runs = new Map<string, FolderRuns | undefined>();
    if (LITTLE_ENDIAN) {
      this.#read ??= this.#db.prepare(`SELECT folder, ${COLUMNS} FROM list_runs WHERE version = ?1 AND folder IN (SELECT value FROM json_each(?2))`);
      // Through a memory map: the kept runs of 25,000 sessions are 6.5 MB on 1,592 pages, which a
      // warm `list --all` read 10-20 ms sooner so, peaking no higher (74-75 MB, 250 fewer page faults).
      for (const [folder, n, ids, numbers, titles, lowCwd, highCwd, odd] of readMapped(this.#db, () => this.#read!.values(version, JSON.stringify(folders)))) {
        const kept = keptRuns(Number(n), ids, numbers, titles, lowCwd, highCwd, odd);
        if (kept) runs.set(folder as string, kept);
      }
    }
    const missing = folders.filter((folder) => !runs.has(folder));
    if (missing.length === 0) return runs;
    const make = (keep: boolean) => {
      for (const folder of missing) {
        this.#make ??= this.#db.prepare(RUNS_OF_ROWS);
        const made = madeRuns(this.#make.values(folder, version)[0] ?? []);
        runs.set(folder, made);
        if (!keep || !made) continue;
        this.#keep ??= this.#db.prepare(`INSERT OR REPLACE INTO list_runs (folder, version, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        const numbers = new Uint8Array(made.numbers.buffer, made.numbers.byteOffset, made.numbers.byteLength);
        this.#keep.run(folder, version, made.n, made.ids, numbers, made.titles, made.lowCwd, made.highCwd, made.odd ? 1 : 0);
      }
    };
    if (!LITTLE_ENDIAN) {
      make(false);
      return runs;
    }
    try {
      this.#transaction(() => make(true));
    } catch {
      // A catalog that cannot be written now (read-only, or busy past the timeout): made, not kept.
      make(false);
    }
    return runs;
  }
}

/** Runs as `list_runs` keeps them, or undefined for a row that is not such (made again then). */
function keptRuns(n: number, ids: unknown, numbers: unknown, titles: unknown, lowCwd: unknown, highCwd: unknown, odd: unknown): FolderRuns | undefined {
  if (!Number.isSafeInteger(n) || n < 0 || typeof ids !== "string" || !(numbers instanceof Uint8Array) || !(titles instanceof Uint8Array)) return undefined;
  if (numbers.byteLength !== 32 * n) return undefined;
  // A view where the bytes sit on a double's boundary, else a copy of them.
  const doubles = numbers.byteOffset % 8 === 0 ? new Float64Array(numbers.buffer, numbers.byteOffset, 4 * n) : new Float64Array(numbers.slice().buffer);
  return { n, ids, numbers: doubles, titles, lowCwd: lowCwd as string | null, highCwd: highCwd as string | null, odd: Number(odd) !== 0 };
}

/** Runs from the row of `RUNS_OF_ROWS`, or undefined where its decimal texts are not lists of `n` whole numbers. */
function madeRuns(row: unknown[]): FolderRuns | undefined {
  const [count, ids, idLengths, modified, messages, titleLengths, titles, lowCwd, highCwd, odd] = row;
  const n = Number(count ?? 0);
  const numbers = new Float64Array(4 * n);
  if (n > 0) {
    if (typeof ids !== "string" || !(titles instanceof Uint8Array)) return undefined;
    for (const [k, text] of [idLengths, modified, messages, titleLengths].entries()) if (decimals(text, numbers, k * n) !== (k + 1) * n) return undefined;
  }
  return {
    n,
    ids: n > 0 ? (ids as string) : "",
    numbers,
    titles: n > 0 ? (titles as Uint8Array) : new Uint8Array(0),
    lowCwd: (lowCwd ?? null) as string | null,
    highCwd: (highCwd ?? null) as string | null,
    odd: Number(odd ?? 0) !== 0,
  };
}

/**
 * Puts the whole numbers of a comma-separated decimal text (SQLite's `group_concat` of integers)
 * into `into` from `at`; gives the place after the last one put, or -1 for a text that is not
 * such a list (or does not fit).
 */
function decimals(text: unknown, into: Float64Array, at: number): number {
  if (typeof text !== "string" || text === "") return -1;
  let value = 0;
  let digits = 0;
  let sign = 1;
  for (let k = 0; k <= text.length; k++) {
    const c = k < text.length ? text.charCodeAt(k) : 44;
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      digits++;
    } else if (c === 45 && digits === 0 && sign === 1) sign = -1;
    else if (c === 44 && digits > 0 && Number.isSafeInteger(value) && at < into.length) {
      into[at++] = sign * value;
      value = digits = 0;
      sign = 1;
    } else return -1;
  }
  return at;
}
