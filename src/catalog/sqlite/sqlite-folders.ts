/**
 * The SQLite store's side of the quick check's folders (folder-check.ts): each listed folder's
 * mtime, when it was listed, its file names and their fingerprint (`folders`), and when each
 * section was last checked in full (`full_checks`).
 * @module
 */
import { oneByte } from "../../core/intern/one-byte.ts";
import { namesDigest } from "../folder-digest.ts";
import type { FolderRecord, FolderSnapshot } from "../store.ts";
import type { SqliteDb, SqliteStatement } from "./sqlite-db.ts";

/**
 * A folder as stored: its names (one a line) are read from the database when first asked for,
 * and split each time they are asked for; their count too (`counts`: every folder's at once, the
 * first time one is asked for). A quick check that finds the folder's section records current by
 * its coverage needs no name of it: at 25,000 sessions in 300 folders, a warm listing read 1.5 MB
 * of names into strings for nothing, and a warm search read them all (1.7 MB, 450 pages) to count
 * lines it never asked for. A folder whose row is gone by then (another process dropped it) has
 * none: it is listed again.
 */
function storedFolder(path: string, mtimeMs: number, listedMs: number, digest: string | undefined, counts: () => Map<string, number>, read: (path: string) => string): FolderRecord {
  let text: string | undefined;
  const lines = () => (text ??= read(path));
  return {
    path,
    mtimeMs,
    listedMs,
    digest,
    get count() {
      return counts().get(path);
    },
    get lines() {
      return lines();
    },
    get names() {
      const all = lines();
      return all === "" ? [] : all.split("\n");
    },
  };
}

/**
 * Each folder's path, stamps and the fingerprint of its names (`digest`: NULL in rows an older
 * pi-session wrote), in an index of their own: a full check compares the names it lists with the
 * fingerprint, where it read 1.5 MB of names at 25,000 sessions (20 ms); the index made before
 * the fingerprints, `folders_stamps`, goes. And each folder's count of names (`count`: NULL in
 * rows an older pi-session wrote), in an index of their own too (`counts` below).
 */
export const FOLDER_INDEX = `CREATE INDEX IF NOT EXISTS folders_digests ON folders (path, mtime, listed, digest);
DROP INDEX IF EXISTS folders_stamps;
CREATE INDEX IF NOT EXISTS folders_counts ON folders (path, count);`;

/** The number of lines of a folder's `names` (none for ''), as SQL. */
const NAMES_COUNTED = "CASE WHEN names = '' THEN 0 ELSE length(names) - length(replace(names, char(10), '')) + 1 END";

/** Gives every folder kept without a count (a catalog from before counts were kept) its count, once. */
export function countFolderNames(db: SqliteDb): void {
  db.exec(`UPDATE folders SET count = ${NAMES_COUNTED} WHERE count IS NULL`);
}

export function loadFolders(db: SqliteDb): FolderSnapshot {
  const folders = new Map<string, FolderRecord>();
  let names: SqliteStatement | undefined;
  // A byte a character: the folders' names make the paths of every session in them.
  const read = (path: string) => oneByte(String((names ??= db.prepare("SELECT names FROM folders WHERE path = ?")).values(path)[0]?.[0] ?? ""));
  let counted: Map<string, number> | undefined;
  // Only when a count is wanted: from the counts' index (`FOLDER_INDEX`), and for a row an older
  // pi-session wrote (no count), from its names read whole (SQLite counts their lines). Reading
  // every folder's names to count them took 15 ms of a warm `list` at 25,000 sessions.
  const counts = () => {
    if (counted) return counted;
    counted = new Map();
    let uncounted = false;
    for (const [path, count] of db.prepare("SELECT path, count FROM folders INDEXED BY folders_counts").values()) {
      if (count === null) uncounted = true;
      else counted.set(oneByte(String(path)), Number(count));
    }
    if (!uncounted) return counted;
    for (const [path, count] of db.prepare(`SELECT path, ${NAMES_COUNTED} FROM folders WHERE count IS NULL`).values()) {
      counted.set(oneByte(String(path)), Number(count));
    }
    return counted;
  };
  // Through `FOLDER_INDEX`: the rows' pages, with their names, are not read here.
  const rows = db.prepare("SELECT path, mtime, listed, digest FROM folders").values();
  for (const [path, mtime, listed, digest] of rows) {
    const name = oneByte(String(path));
    folders.set(name, storedFolder(name, Number(mtime), Number(listed), typeof digest === "string" ? digest : undefined, counts, read));
  }
  const fullChecks = new Map<string, number>();
  for (const [section, at] of db.prepare("SELECT section, at FROM full_checks").values()) fullChecks.set(String(section), Number(at));
  return { folders, fullChecks, digests: true };
}

/** Inside a write transaction. */
export function saveFolders(db: SqliteDb, folders: readonly FolderRecord[], remove: readonly string[], fullChecks: ReadonlyMap<string, number>): void {
  // Names are kept one a line: a folder with a name holding a newline is never saved (folder-check.ts).
  const put = db.prepare("INSERT OR REPLACE INTO folders (path, mtime, listed, names, digest, count) VALUES (?, ?, ?, ?, ?, ?)");
  for (const f of folders) {
    const names = f.names;
    put.run(f.path, f.mtimeMs, f.listedMs, names.join("\n"), namesDigest(names), names.length);
  }
  const drop = db.prepare("DELETE FROM folders WHERE path = ?");
  for (const path of remove) drop.run(path);
  const check = db.prepare("INSERT OR REPLACE INTO full_checks (section, at) VALUES (?, ?)");
  for (const [section, at] of fullChecks) check.run(section, at);
}
