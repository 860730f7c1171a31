/**
 * `SqliteDb` over Bun's built-in `bun:sqlite` (also inside the compiled binary). Bun answers
 * "no row" with null; this wrapper says undefined, as node:sqlite does.
 * @module
 */
import type { SqliteDb, SqliteStatement, SqlValue } from "./sqlite-db.ts";

interface BunStatement {
  run(...params: SqlValue[]): { lastInsertRowid: number | bigint; changes: number };
  all(...params: SqlValue[]): Record<string, unknown>[];
  get(...params: SqlValue[]): Record<string, unknown> | null;
  values(...params: SqlValue[]): unknown[][];
  iterate(...params: SqlValue[]): IterableIterator<Record<string, unknown>>;
}

interface BunDatabase {
  exec(sql: string): void;
  prepare(sql: string): BunStatement;
  close(): void;
}

/** Opens (creating if needed) the database at `path`; throws when `bun:sqlite` is missing. */
export async function openBunSqlite(path: string): Promise<SqliteDb> {
  const specifier = "bun:sqlite";
  const { Database } = await import(specifier) as { Database: new (path: string, options: { create: boolean }) => BunDatabase };
  const db = new Database(path, { create: true });
  return {
    driver: "bun:sqlite",
    exec: (sql) => db.exec(sql),
    prepare(sql): SqliteStatement {
      const statement = db.prepare(sql);
      return {
        run: (...params) => statement.run(...params),
        all: (...params) => statement.all(...params),
        get: (...params) => statement.get(...params) ?? undefined,
        values: (...params) => statement.values(...params),
        iterate: (...params) => statement.iterate(...params),
      };
    },
    close: () => db.close(),
  };
}
