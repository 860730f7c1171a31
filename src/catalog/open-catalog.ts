/**
 * Opens the catalog the way the CLI wants it: SQLite where the runtime has it and the file
 * system is the real disk, else the portable file store, else none. Where: the cache directory
 * `$XDG_CACHE_HOME/pi-session/` (default `~/.cache/pi-session/`).
 * @module
 */
import type { StorageEnv } from "../core/storage/layout.ts";
import { isAbsolutePath, joinPath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import { Catalog } from "./catalog.ts";
import { FileCatalogStore } from "./file-store.ts";
import { makePrivate, makePrivateDir, PRIVATE_FILE_MODE } from "./private-files.ts";
import { openSqliteStore, SqliteUnavailableError } from "./sqlite/open-sqlite.ts";

/** `auto` (SQLite, else file), `sqlite`, `file`, or `off` (read the files every time). */
export type CatalogMode = "auto" | "sqlite" | "file" | "off";

/** Where and how to open the catalog. */
export interface OpenCatalogOptions {
  fs: FileSystem;
  cacheDir: string;
  mode?: CatalogMode;
  /** True when `fs` is the real disk, the only place SQLite can open its file. */
  realDisk?: boolean;
  note?: (message: string) => void;
  concurrency?: number;
}

/** The cache directory for pi-session under `$XDG_CACHE_HOME` (when absolute) or `~/.cache`. */
export function defaultCacheDir(storage: StorageEnv): string {
  const xdg = storage.env("XDG_CACHE_HOME");
  return joinPath(xdg && isAbsolutePath(xdg) ? xdg : joinPath(storage.home, ".cache"), "pi-session");
}

/** The SQLite database file inside a cache directory. */
export function sqliteCatalogPath(cacheDir: string): string {
  return joinPath(cacheDir, "catalog-v1.sqlite");
}

/**
 * A catalog over the best store available. Never throws: a store that cannot be opened is
 * reported through `note` and the next best is used.
 */
export async function openCatalog(options: OpenCatalogOptions): Promise<Catalog> {
  const { fs, cacheDir, mode = "auto", note = () => {} } = options;
  const make = (store: Catalog["store"]) => new Catalog(fs, { store, note, concurrency: options.concurrency });
  if (mode === "off") return make(null);
  // What an older version made readable by others (0755, 0644) is narrowed first.
  await makePrivate(fs, cacheDir).catch((error: Error) => note(`The catalog folder ${cacheDir} cannot be made private (${error.message})`));
  if ((mode === "auto" || mode === "sqlite") && options.realDisk) {
    try {
      await makePrivateDir(fs, cacheDir);
      const path = sqliteCatalogPath(cacheDir);
      // Made here, 0600, rather than by SQLite with the process's default mode: its -wal and
      // -shm files then take the same mode.
      await fs.append(path, new Uint8Array(0), { mode: PRIVATE_FILE_MODE });
      return make(await openSqliteStore(path));
    } catch (error) {
      const why = (error as Error).message;
      if (!(error instanceof SqliteUnavailableError)) note(`The catalog at ${sqliteCatalogPath(cacheDir)} cannot be opened (${why}); using the file catalog`);
      else if (mode === "sqlite") note(`${why}; using the file catalog`);
    }
  }
  return make(new FileCatalogStore(fs, cacheDir));
}
