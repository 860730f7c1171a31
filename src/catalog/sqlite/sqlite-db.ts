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
