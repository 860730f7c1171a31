/**
 * The listing rows of the SQLite store (list-row.ts): one flat row per listing record, read
 * in a listing's sort order a row at a time. They are written with the records, in the same
 * transaction; triggers on `records` mark the path of every listing record written by anyone
 * (an older pi-session that knows no rows, too) as dirty, and a run makes the rows of dirty
 * paths anew from their records before it reads any (`sync`).
 * @module
 */
import type { CatalogRecord, RecordStamp, SectionKey } from "../store.ts";
import { LIST_ROW_SECTION, type ListRow, type ListRowStore, listingOrder, soundListRow, type ByIdRow, type OrderedColumns, type OrderedRow, type ProjectRow, type RowOrder, type SizedRow, type TableColumns } from "../list-row.ts";
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";
import { dropRunsForBulk, IN_FOLDER, KeptRuns, LIST_RUN_TABLES } from "./sqlite-list-runs.ts";

export const LIST_ROW_TABLE_NAMES = ["list_rows", "list_dirty", "list_runs"];

export const LIST_ROW_TABLES = `
CREATE TABLE IF NOT EXISTS list_rows (
  path TEXT PRIMARY KEY, version INTEGER NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL, id TEXT, cwd TEXT NOT NULL,
  name TEXT, parent TEXT, created REAL, modified REAL, messages INTEGER NOT NULL, first TEXT NOT NULL, bad TEXT, odd INTEGER NOT NULL)
  WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS list_dirty (path TEXT PRIMARY KEY);
CREATE INDEX IF NOT EXISTS list_rows_flagged ON list_rows (path) WHERE odd <> 0 OR bad IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS list_dirty_insert AFTER INSERT ON records WHEN new.section = '${LIST_ROW_SECTION}'
  BEGIN INSERT OR IGNORE INTO list_dirty (path) SELECT path FROM files WHERE id = new.file; END;
CREATE TRIGGER IF NOT EXISTS list_dirty_update AFTER UPDATE ON records WHEN new.section = '${LIST_ROW_SECTION}' OR old.section = '${LIST_ROW_SECTION}'
  BEGIN INSERT OR IGNORE INTO list_dirty (path) SELECT path FROM files WHERE id IN (old.file, new.file); END;
CREATE TRIGGER IF NOT EXISTS list_dirty_delete AFTER DELETE ON records WHEN old.section = '${LIST_ROW_SECTION}'
  BEGIN INSERT OR IGNORE INTO list_dirty (path) SELECT path FROM files WHERE id = old.file; END;
${LIST_RUN_TABLES}`;

/** The rows of direct children of the folders of a JSON array (`?1`), of version `?2`, that are sessions. */
const IN_FOLDERS = `FROM json_each(?1) f JOIN list_rows l ON l.path >= f.value || '/' AND l.path < f.value || '0'
  WHERE l.version = ?2 AND l.id IS NOT NULL AND instr(substr(l.path, length(f.value) + 2), '/') = 0`;
/** The columns of a listing row every read gives, named as `ByIdRow` names them (path and first aside). */
const ROW_COLUMNS = "l.id AS id, l.cwd AS cwd, l.name AS name, l.modified AS modified, l.messages AS messages, l.first AS first";
const ORDERS: Record<RowOrder, string> = {
  modified: "l.modified DESC, f.key, l.path DESC",
  messages: "l.messages DESC, l.modified DESC, f.key, l.path DESC",
};

/** Paths whose rows are made anew per transaction. */
const SYNC_SLICE = 500;

/** What the rows need of their store: records by path, and a transaction. */
export interface ListRowHost {
  load(section: SectionKey, paths: readonly string[]): Map<string, CatalogRecord>;
  transaction(work: () => void): void;
}

/** The listing rows of one SQLite database. */
export class SqliteListRows implements ListRowStore {
  #db: SqliteDb;
  #host: ListRowHost;
  #put: SqliteStatement | undefined;
  /** Statements prepared once: a cold build puts rows hundreds of times. */
  #clean: SqliteStatement | undefined;
  #drop: SqliteStatement | undefined;
  #kept: KeptRuns;
  #tableCwds: SqliteStatement | undefined;

  constructor(db: SqliteDb, host: ListRowHost) {
    this.#db = db;
    this.#host = host;
    this.#kept = new KeptRuns(db, (work) => host.transaction(work));
  }

  sync(section: SectionKey): void {
    for (let paths = this.dirty(); paths.length > 0; paths = this.dirty()) {
      const records = this.#host.load(section, paths);
      this.#host.transaction(() => {
        this.remove(paths);
        this.put([...records.values()].flatMap((record) => soundListRow(section, record) ?? []), section.version);
      });
    }
  }

  /** Marks every listing record dirty: their rows are made at the next `sync` (a store that had no rows). */
  markAll(): void {
    // Runs kept of rows made before are not to be trusted then.
    this.#db.exec("DELETE FROM list_runs");
    this.#db.exec(`INSERT OR IGNORE INTO list_dirty (path) SELECT f.path FROM records r JOIN files f ON f.id = r.file WHERE r.section = '${LIST_ROW_SECTION}'`);
  }

  /** Puts the rows of records just saved (inside the store's transaction), and clears their paths' dirt. */
  put(rows: readonly ListRow[], version: number): void {
    dropRunsForBulk(this.#db, rows.length);
    this.#put ??= this.#db.prepare("INSERT OR REPLACE INTO list_rows (path, version, size, mtime, id, cwd, name, parent, created, modified, messages, first, bad, odd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const clean = this.#clean ??= this.#db.prepare("DELETE FROM list_dirty WHERE path = ?");
    for (const r of rows) {
      this.#put.run(r.path, version, r.size, r.mtimeMs, r.id, r.cwd, r.name, r.parent, r.created, r.modified, r.messages, r.first, r.badHeader, r.odd ? 1 : 0);
      clean.run(r.path);
    }
  }

  /** Drops the rows of records just removed (inside the store's transaction), and their paths' dirt. */
  remove(paths: readonly string[]): void {
    dropRunsForBulk(this.#db, paths.length);
    const drop = this.#drop ??= this.#db.prepare("DELETE FROM list_rows WHERE path = ?");
    const clean = this.#clean ??= this.#db.prepare("DELETE FROM list_dirty WHERE path = ?");
    for (const path of paths) {
      drop.run(path);
      clean.run(path);
    }
  }

  /** Up to `limit` dirty paths. */
  dirty(limit = SYNC_SLICE): string[] {
    return this.#db.prepare("SELECT path FROM list_dirty LIMIT ?").values(limit).map((row) => String(row[0]));
  }

  clear(): void {
    // The kept runs first: with none, the rows' triggers have nothing to look for.
    this.#db.exec("DELETE FROM list_runs; DELETE FROM list_rows; DELETE FROM list_dirty;");
  }

  /**
   * The stamps of the rows under `dir` (at any depth), and whether any of them is odd (see
   * `ListRow.odd`): what a refresh compares the files with.
   */
  stamps(version: number, dir: string): { stamps: Map<string, RecordStamp>; odd: boolean; bad: boolean } {
    const rows = this.#db.prepare("SELECT path, size, mtime, odd, bad IS NOT NULL FROM list_rows WHERE path >= ? AND path < ? AND version = ?")
      .values(dir + "/", dir + "0", version);
    const stamps = new Map<string, RecordStamp>();
    let odd = false;
    let bad = false;
    for (const [path, size, mtime, isOdd, isBad] of rows) {
      stamps.set(path as string, { size: Number(size), mtimeMs: Number(mtime) });
      if (Number(isOdd) !== 0) odd = true;
      if (Number(isBad) !== 0) bad = true;
    }
    return { stamps, odd, bad };
  }

  flags(version: number, dir: string): { odd: boolean; bad: boolean } {
    // Through the index of flagged rows (`list_rows_flagged`): a warm run read every row's page for none.
    const found = this.#db.prepare("SELECT max(odd) AS odd, max(bad IS NOT NULL) AS bad FROM list_rows WHERE path >= ? AND path < ? AND version = ? AND (odd <> 0 OR bad IS NOT NULL)")
      .get(dir + "/", dir + "0", version);
    return { odd: Number(found?.odd ?? 0) !== 0, bad: Number(found?.bad ?? 0) !== 0 };
  }

  ordered(version: number, folders: readonly string[], order: RowOrder, full: boolean): Iterable<OrderedRow> {
    const columns = full ? "l.path AS path, l.parent AS parent, l.created AS created" : "'' AS path, NULL AS parent, NULL AS created";
    const statement = this.#db.prepare(`SELECT ${columns}, ${ROW_COLUMNS} ${IN_FOLDERS} ORDER BY ${ORDERS[order]}`);
    // The rows as SQLite hands them over, not copied: a sound row's columns have their types (ListRow.odd).
    return statement.iterate(JSON.stringify(folders), version) as Iterable<Record<string, unknown>> as Iterable<OrderedRow>;
  }

  orderedColumns(version: number, folders: readonly string[], order: RowOrder): OrderedColumns {
    // Arrays of values, not an object per row through an iterator: `list --all` of 25,000
    // sessions after 10 appended took 945 ms of CPU, not 1,000 (medians of 8, the machine loaded).
    const rows = this.#db.prepare(`SELECT l.id, l.cwd, coalesce(l.name, l.first), l.modified, l.messages ${IN_FOLDERS} ORDER BY ${ORDERS[order]}`)
      .values(JSON.stringify(folders), version);
    const columns: OrderedColumns = { ids: [], cwds: [], titles: [], modified: [], messages: [] };
    const shared = new Map<string, string>();
    for (const [id, cwd, title, modified, messages] of rows) {
      pushRow(columns, shared, id, cwd, modified, messages);
      columns.titles.push(title as string);
    }
    return columns;
  }

  tableColumns(version: number, folders: readonly string[], order: RowOrder, room = 0): TableColumns | undefined {
    // A folder at a time, by path (the table's key: nothing to sort), from its runs; the
    // listing's order is then found from the times alone. Read as rows, 25,000 sessions made an
    // array, an id and a cwd string each.
    const runs = this.#kept.of(version, folders);
    let table = new TableRoom(room);
    for (const [place, path] of folders.entries()) {
      const folder = runs.get(path);
      if (!folder || folder.odd) return undefined;
      const { n: rows, ids, numbers, titles: run, lowCwd, highCwd } = folder;
      if (rows === 0) continue;
      const at = table.count;
      const end = at + rows;
      if (end > table.room) table = new TableRoom(Math.max(2 * table.room, end), table);
      const { columns } = table;
      // No id is odd: one character, one code unit (see ListRow.odd).
      let from = 0;
      for (let i = 0; i < rows; i++) columns.ids[at + i] = ids.slice(from, from += numbers[i]);
      if (from !== ids.length) return undefined;
      columns.modified.set(numbers.subarray(rows, 2 * rows), at);
      columns.messages.set(numbers.subarray(2 * rows, 3 * rows), at);
      from = 0;
      for (let i = 0; i < rows; i++) {
        columns.start[at + i] = from;
        columns.end[at + i] = from += numbers[3 * rows + i];
        columns.chunk[at + i] = columns.titles.length;
        table.folder[at + i] = place;
      }
      if (from !== run.length) return undefined;
      columns.titles.push(run);
      // A folder's sessions share one cwd (a project's folder is named after it); else each has its own.
      if (lowCwd === highCwd) for (let i = at; i < end; i++) columns.cwds[i] = lowCwd!;
      else {
        this.#tableCwds ??= this.#db.prepare(`SELECT cwd ${IN_FOLDER}`);
        const cwds = this.#tableCwds.values(path, version);
        if (cwds.length !== rows) return undefined;
        for (let i = at; i < end; i++) columns.cwds[i] = cwds[i - at][0] as string;
      }
      table.count = end;
    }
    const columns = table.done();
    columns.order = listingOrder(order, columns.modified, columns.messages, table.folder.subarray(0, table.count));
    return columns;
  }

  byId(version: number, folders: readonly string[], wanted: { path: boolean; first: boolean }): Iterable<ByIdRow> {
    const statement = this.#db.prepare(
      `SELECT ${wanted.path ? "l.path" : "''"} AS path, l.id AS id, l.cwd AS cwd, l.name AS name, l.modified AS modified, l.messages AS messages,
        ${wanted.first ? "l.first" : "''"} AS first ${IN_FOLDERS} ORDER BY l.id`,
    );
    return statement.iterate(JSON.stringify(folders), version) as Iterable<Record<string, unknown>> as Iterable<ByIdRow>;
  }

  withIds(version: number, folders: readonly string[], ids: readonly string[]): Iterable<ByIdRow> {
    // Every row gone through, none sorted or handed over but those asked for.
    const statement = this.#db.prepare(`SELECT '' AS path, l.id AS id, l.cwd AS cwd, l.name AS name, l.modified AS modified, l.messages AS messages, '' AS first
      ${IN_FOLDERS} AND l.id IN (SELECT value FROM json_each(?3))`);
    return statement.iterate(JSON.stringify(folders), version, JSON.stringify(ids)) as Iterable<Record<string, unknown>> as Iterable<ByIdRow>;
  }

  sized(version: number, folders: readonly string[]): Iterable<SizedRow> {
    const statement = this.#db.prepare(`SELECT l.path AS path, ${ROW_COLUMNS}, l.size AS size ${IN_FOLDERS}`);
    return statement.iterate(JSON.stringify(folders), version) as Iterable<Record<string, unknown>> as Iterable<SizedRow>;
  }

  ids(version: number, folders: readonly string[]): string[] {
    return this.#db.prepare(`SELECT l.id ${IN_FOLDERS} ORDER BY l.id`).values(JSON.stringify(folders), version).map((row) => row[0] as string);
  }

  projects(version: number, folders: readonly string[]): Iterable<ProjectRow> {
    // Added up by SQLite: one row per project comes back, where a row per session (each with
    // its first message) made 20 MB of garbage at 25,000 sessions, and a sort.
    return this.#db.prepare(`SELECT l.cwd AS cwd, count(*) AS sessions, total(l.messages) AS messages ${IN_FOLDERS} GROUP BY l.cwd`)
      .all(JSON.stringify(folders), version)
      .map((row) => ({ cwd: String(row.cwd), sessions: Number(row.sessions), messages: Number(row.messages) }));
  }

  /** Files directly in `folders` whose line 1 is a session header that cannot be used, and why: in the folders' order. */
  badHeaders(version: number, folders: readonly string[]): [string, string][] {
    return this.#db.prepare(
      `SELECT l.path, l.bad FROM json_each(?1) f JOIN list_rows l ON l.path >= f.value || '/' AND l.path < f.value || '0'
        WHERE l.version = ?2 AND l.bad IS NOT NULL AND instr(substr(l.path, length(f.value) + 2), '/') = 0 ORDER BY f.key, l.path DESC`,
    ).values(JSON.stringify(folders), version).map(([path, why]) => [String(path), String(why)]);
  }
}

/** One row's id, cwd (one string for each cwd, `shared`), time and message count onto `columns`. */
function pushRow(columns: Omit<OrderedColumns, "titles">, shared: Map<string, string>, id: unknown, cwd: unknown, modified: unknown, messages: unknown): void {
  columns.ids.push(id as string);
  let text = shared.get(cwd as string);
  if (text === undefined) shared.set(cwd as string, text = cwd as string);
  columns.cwds.push(text);
  columns.modified.push(modified as number);
  columns.messages.push(messages as number);
}

/** `TableColumns` being filled: room for `room` sessions, of which `count` are there (and the folder of each). */
class TableRoom {
  readonly room: number;
  readonly columns: TableColumns;
  readonly folder: Int32Array;
  count = 0;

  /** Room for `room` sessions (with the sessions of `from`). */
  constructor(room: number, from?: TableRoom) {
    this.room = room;
    const count = from?.count ?? 0;
    const made = <T extends Float64Array | Int32Array>(array: T, old: T | undefined): T => {
      if (old) array.set(old.subarray(0, count));
      return array;
    };
    const old = from?.columns;
    this.columns = {
      // Filled in order, a place at a time: grown as pushed (a holey array of 100,000 and more is kept sparse).
      ids: old?.ids ?? [],
      cwds: old?.cwds ?? [],
      titles: old?.titles ?? [],
      order: [],
      modified: made(new Float64Array(room), old?.modified),
      messages: made(new Float64Array(room), old?.messages),
      chunk: made(new Int32Array(room), old?.chunk),
      start: made(new Int32Array(room), old?.start),
      end: made(new Int32Array(room), old?.end),
    };
    this.folder = made(new Int32Array(room), from?.folder);
    this.count = count;
  }

  /** The columns of the `count` sessions there. */
  done(): TableColumns {
    const { columns, count } = this;
    columns.ids.length = columns.cwds.length = count;
    columns.modified = columns.modified.subarray(0, count);
    columns.messages = columns.messages.subarray(0, count);
    columns.chunk = columns.chunk.subarray(0, count);
    columns.start = columns.start.subarray(0, count);
    columns.end = columns.end.subarray(0, count);
    return columns;
  }
}
