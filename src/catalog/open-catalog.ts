/**
 * Opens the catalog the way the CLI wants it: SQLite where the runtime has it and the file
 * system is the real disk, else the portable file store, else none. Where: the cache directory
 * `$XDG_CACHE_HOME/pi-session/` (default `~/.cache/pi-session/`).
 * @module
 */
import type { StorageEnv } from "../core/storage/layout.ts";
import { isAbsolutePath, joinPath } from "../core/storage/paths.ts";
import { type FileSystem, isFsError } from "../io/file-system.ts";
import { Catalog } from "./catalog.ts";
import type { CheckMode } from "./folder-check.ts";
import { FileCatalogStore } from "./file-store.ts";
import { makePrivate, makePrivateDir, PRIVATE_FILE_MODE } from "./private-files.ts";
import { openSqliteStore, SqliteUnavailableError } from "./sqlite/open-sqlite.ts";
import type { SqliteCatalogStore } from "./sqlite/sqlite-store.ts";

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
  /** Check the whole SQLite file (`index --rebuild`): a damaged one is set aside and rebuilt. */
  verify?: boolean;
  /** The time a set-aside file is named after (default: now). */
  now?: () => Date;
  /** See `CatalogOptions.noteSaveFailures`. */
  noteSaveFailures?: boolean;
  /** See `CatalogOptions.check`. */
  check?: CheckMode;
  /** See `CatalogOptions.later`. */
  later?: () => void;
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

/** A database that opens but whose check finds damage. */
class DamagedDatabaseError extends Error {}

/** SQLite's answer for a file that is not a database or is damaged (SQLITE_NOTADB, SQLITE_CORRUPT). */
export function isDamagedDatabase(error: unknown): boolean {
  return error instanceof DamagedDatabaseError || /not a database|malformed|corrupt/i.test(String((error as Error)?.message ?? error));
}

/**
 * Moves a damaged database out of the way, with its -wal and -shm (a new file must not replay
 * the old log): `catalog-v1.sqlite` becomes `catalog-v1.sqlite.broken-<time>`. Returns that name.
 */
async function setAside(fs: FileSystem, path: string, now: Date): Promise<string> {
  const aside = `${path}.broken-${now.toISOString().replace(/[:.]/g, "-")}`;
  await fs.rename(path, aside);
  for (const suffix of ["-wal", "-shm"]) {
    await fs.rename(path + suffix, aside + suffix).catch((error) => {
      if (!isFsError(error, "NotFound")) throw error;
    });
  }
  return aside;
}

/** Opens the SQLite store at `path`, made 0600 first; with `verify`, a damaged one counts as unopenable. */
async function openSqlite(fs: FileSystem, path: string, verify: boolean): Promise<SqliteCatalogStore> {
  // Made here, 0600, rather than by SQLite with the process's default mode: its -wal and
  // -shm files then take the same mode.
  await fs.append(path, new Uint8Array(0), { mode: PRIVATE_FILE_MODE });
  const store = await openSqliteStore(path);
  const problem = verify ? store.damage() : null;
  if (problem !== null) {
    store.close();
    throw new DamagedDatabaseError(`its check found: ${problem}`);
  }
  return store;
}

/**
 * A catalog over the best store available. Never throws: a store that cannot be opened is
 * reported through `note` and the next best is used. A SQLite file that is not a database, or
 * (with `verify`, which reads it all) a damaged one, is set aside and a new one is made.
 */
export async function openCatalog(options: OpenCatalogOptions): Promise<Catalog> {
  const { fs, cacheDir, mode = "auto", note = () => {} } = options;
  const now = options.now;
  const make = (store: Catalog["store"]) =>
    new Catalog(fs, { store, note, concurrency: options.concurrency, noteSaveFailures: options.noteSaveFailures, check: options.check, later: options.later, now: now && (() => now().getTime()) });
  if (mode === "off") return make(null);
  // What an older version made readable by others (0755, 0644) is narrowed first.
  const made = await makePrivate(fs, cacheDir).catch((error: Error) => void note(`The catalog folder ${cacheDir} cannot be made private (${error.message})`));
  if ((mode === "auto" || mode === "sqlite") && options.realDisk) {
    const path = sqliteCatalogPath(cacheDir);
    try {
      // A folder there and made private needs no making (a wait for the thread pool).
      if (made !== true) await makePrivateDir(fs, cacheDir);
      try {
        return make(await openSqlite(fs, path, options.verify ?? false));
      } catch (error) {
        if (!isDamagedDatabase(error)) throw error;
        const aside = await setAside(fs, path, options.now?.() ?? new Date());
        note(`The catalog at ${path} was damaged (${(error as Error).message}); it is kept as ${aside} and a new one is built`);
        return make(await openSqlite(fs, path, false));
      }
    } catch (error) {
      const why = (error as Error).message;
      if (!(error instanceof SqliteUnavailableError)) note(`The catalog at ${path} cannot be opened (${why}); using the file catalog`);
      else if (mode === "sqlite") note(`${why}; using the file catalog`);
    }
  }
  return make(new FileCatalogStore(fs, cacheDir));
}
