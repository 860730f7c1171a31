/**
 * The session catalog: per-file digests kept between runs (SQLite where the runtime has it,
 * a portable file store otherwise), refreshed by reading only what changed; listing, search
 * and the stores built on it.
 * @module
 */
export * from "./store.ts";
export * from "./stored-state.ts";
export * from "./catalog.ts";
export * from "./refresh-file.ts";
export * from "./file-store.ts";
export * from "./open-catalog.ts";
export * from "./list-cached.ts";
export * from "./search-hit.ts";
export * from "./search-scan.ts";
export * from "./search-index.ts";
export * from "./search-sessions.ts";
export { SqliteCatalogStore } from "./sqlite/sqlite-store.ts";
export { openSqliteStore, SqliteUnavailableError } from "./sqlite/open-sqlite.ts";
export type { SqliteDb, SqliteStatement } from "./sqlite/sqlite-db.ts";
