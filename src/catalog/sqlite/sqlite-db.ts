/**
 * The slice of a synchronous SQLite binding the catalog uses; `bun:sqlite` and `node:sqlite`
 * (Node ≥ 22.5, Deno ≥ 2.2) both fit it after a thin wrapper.
 * @module
 */

/** A value a statement parameter takes. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A prepared statement; parameters are positional (`?`). */
export interface SqliteStatement {
  run(...params: SqlValue[]): { lastInsertRowid: number | bigint; changes: number | bigint };
  all(...params: SqlValue[]): Record<string, unknown>[];
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  /** Rows as arrays of column values, in the order selected: cheaper than objects for many rows. */
  values(...params: SqlValue[]): unknown[][];
  /** Rows one at a time, as objects: a long result is never held whole. */
  iterate(...params: SqlValue[]): IterableIterator<Record<string, unknown>>;
}

/** An open database. */
export interface SqliteDb {
  /** "bun:sqlite" or "node:sqlite". */
  readonly driver: string;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Bytes of the file mapped while `readMapped` reads (SQLite maps no more than the file holds). */
const MAP_BYTES = 1 << 30;

/**
 * `read`, through a memory map of the file: the store keeps no map (see setUpSchema: every page a
 * run touches through one counts in its resident memory), but a read of many pages (a whole
 * index walked, or rows scattered over the file), each otherwise fetched with a call of its own
 * and copied, is done sooner so.
 */
export function readMapped<T>(db: SqliteDb, read: () => T): T {
  db.exec(`PRAGMA mmap_size = ${MAP_BYTES}`);
  try {
    return read();
  } finally {
    db.exec("PRAGMA mmap_size = 0");
  }
}
