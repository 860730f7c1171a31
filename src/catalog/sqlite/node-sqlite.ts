/**
 * `SqliteDb` over `node:sqlite`, which Node ≥ 22.5 and Deno ≥ 2.2 provide. Node marks the
 * module experimental and warns on first load; that one warning is held back, since a cache
 * is no business of the user's.
 * @module
 */
import type { SqliteDb, SqliteStatement, SqlValue } from "./sqlite-db.ts";

export interface NodeStatement extends Omit<SqliteStatement, "values" | "iterate"> {
  /** Node ≥ 22.13 and Deno; before, rows come from `all`. */
  iterate?(...params: SqlValue[]): IterableIterator<Record<string, unknown>>;
  /** Node ≥ 24 and Deno: `all` and `get` give arrays while set. */
  setReturnArrays?(enabled: boolean): void;
}

interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  close(): void;
}

/** Rows as arrays: natively where the binding can, else from the row objects (keys keep column order). */
export function arrayRows(statement: NodeStatement, params: SqlValue[]): unknown[][] {
  if (!statement.setReturnArrays) return statement.all(...params).map((row) => Object.values(row));
  statement.setReturnArrays(true);
  try {
    return statement.all(...params) as unknown as unknown[][];
  } finally {
    statement.setReturnArrays(false);
  }
}

interface WarningProcess {
  emitWarning: (warning: string | Error, ...rest: unknown[]) => void;
}

async function importQuietly(specifier: string): Promise<{ DatabaseSync: new (path: string) => NodeDatabase }> {
  const proc = (globalThis as { process?: WarningProcess }).process;
  const original = proc?.emitWarning;
  if (proc && original) {
    proc.emitWarning = (warning, ...rest) => {
      if (!String(warning instanceof Error ? warning.message : warning).includes("SQLite")) original.call(proc, warning, ...rest);
    };
  }
  try {
    return await import(specifier);
  } finally {
    if (proc && original) proc.emitWarning = original;
  }
}

/** Opens (creating if needed) the database at `path`; throws when `node:sqlite` is missing. */
export async function openNodeSqlite(path: string): Promise<SqliteDb> {
  const { DatabaseSync } = await importQuietly("node:sqlite");
  const db = new DatabaseSync(path);
  return {
    driver: "node:sqlite",
    exec: (sql) => db.exec(sql),
    prepare(sql): SqliteStatement {
      const statement = db.prepare(sql);
      return {
        run: (...params) => statement.run(...params),
        all: (...params) => statement.all(...params),
        get: (...params) => statement.get(...params),
        values: (...params) => arrayRows(statement, params),
        iterate: (...params) => statement.iterate ? statement.iterate(...params) : statement.all(...params)[Symbol.iterator](),
      };
    },
    close: () => db.close(),
  };
}
