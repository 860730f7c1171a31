/**
 * The paths of the SQLite catalog, each stored once (`files`: number → path) and referred to by
 * its number everywhere else: records, header facts and documents. A path was stored again in
 * every table and in every index keyed by it (at 25,000 sessions, 130 bytes a path: 36 MB of a
 * 264 MB catalog).
 * @module
 */
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";

export const FILE_TABLE = "files";

export const FILE_TABLES = `CREATE TABLE IF NOT EXISTS files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);`;

/** The file numbers of one database; every method runs inside the store's transaction. */
export class SqliteFiles {
  #db: SqliteDb;
  #add: SqliteStatement | undefined;
  #find: SqliteStatement | undefined;

  constructor(db: SqliteDb) {
    this.#db = db;
  }

  /** The number of `path`, made when `create`; undefined when it has none. */
  id(path: string, create: boolean): number | undefined {
    if (create) (this.#add ??= this.#db.prepare("INSERT OR IGNORE INTO files (path) VALUES (?)")).run(path);
    const row = (this.#find ??= this.#db.prepare("SELECT id FROM files WHERE path = ?")).values(path)[0];
    return row === undefined ? undefined : Number(row[0]);
  }

  /** Forgets the numbers of `ids` that no record and no document refers to any more. */
  forgetUnused(ids: readonly number[]): void {
    if (ids.length === 0) return;
    // The records are keyed by (section, file): naming the sections lets SQLite use that key.
    // The sections, one seek each (a DISTINCT reads the whole key).
    const next = this.#db.prepare("SELECT section FROM records WHERE section > ? ORDER BY section LIMIT 1");
    const sections: string[] = [];
    for (let row = next.values("")[0]; row !== undefined; row = next.values(sections[sections.length - 1])[0]) sections.push(String(row[0]));
    const id = `?${sections.length + 1}`;
    const inRecords = sections.length === 0
      ? ""
      : `AND NOT EXISTS (SELECT 1 FROM records WHERE section IN (${sections.map((_, i) => `?${i + 1}`).join(", ")}) AND file = ${id})`;
    const drop = this.#db.prepare(`DELETE FROM files WHERE id = ${id} ${inRecords} AND NOT EXISTS (SELECT 1 FROM docs WHERE file = ${id})`);
    for (const file of ids) drop.run(...sections, file);
  }

  clear(): void {
    this.#db.exec("DELETE FROM files");
  }
}
