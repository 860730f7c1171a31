/**
 * Picks the SQLite binding of the running runtime: `bun:sqlite` under Bun (and in the
 * compiled binary), `node:sqlite` under Deno and Node ≥ 22.5. Node 20 has neither.
 * @module
 */
import { openBunSqlite } from "./bun-sqlite.ts";
import { openNodeSqlite } from "./node-sqlite.ts";
import { SqliteCatalogStore } from "./sqlite-store.ts";

/** The runtime has no SQLite binding (Node before 22.5). */
export class SqliteUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`This runtime has no SQLite (${(cause as Error)?.message ?? cause})`, { cause });
    this.name = "SqliteUnavailableError";
  }
}

/**
 * A SQLite catalog store at `path`. Throws `SqliteUnavailableError` when the runtime has no
 * SQLite, and the binding's error when the file cannot be opened as a database.
 */
export async function openSqliteStore(path: string): Promise<SqliteCatalogStore> {
  const isBun = (globalThis as { Bun?: unknown }).Bun !== undefined;
  let db;
  try {
    db = isBun ? await openBunSqlite(path) : await openNodeSqlite(path);
  } catch (error) {
    // Opening a file that is not a database succeeds; only a missing binding fails here.
    throw new SqliteUnavailableError(error);
  }
  try {
    return new SqliteCatalogStore(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
}
