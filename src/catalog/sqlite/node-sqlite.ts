/**
 * `SqliteDb` over `node:sqlite`, which Node ≥ 22.5 and Deno ≥ 2.2 provide. Node marks the
 * module experimental and warns on first load; that one warning is held back, since a cache
 * is no business of the user's.
 * @module
 */
import type { SqliteDb } from "./sqlite-db.ts";

interface NodeDatabase extends Omit<SqliteDb, "driver"> {}

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
    prepare: (sql) => db.prepare(sql),
    close: () => db.close(),
  };
}
