/**
 * The SQLite store's side of the quick check's folders (folder-check.ts): each listed folder's
 * mtime, when it was listed and its file names (`folders`), and when each section was last
 * checked in full (`full_checks`).
 * @module
 */
import { oneByte } from "../../core/intern/one-byte.ts";
import type { FolderRecord, FolderSnapshot } from "../store.ts";
import type { SqliteDb } from "./sqlite-db.ts";

/**
 * A folder as stored: its names (one a line) are split each time they are asked for, and not
 * kept. A quick check that finds the folder's section records current by its coverage needs no
 * name of it (25,000 strings fewer for a corpus of 300 folders), and a listing that has made its
 * files from them lets them go (folder-check.ts): kept here, they lived as long as the catalog.
 */
function storedFolder(path: string, mtimeMs: number, listedMs: number, text: string): FolderRecord {
  return {
    path,
    mtimeMs,
    listedMs,
    lines: text,
    get names() {
      return text === "" ? [] : text.split("\n");
    },
  };
}

export function loadFolders(db: SqliteDb): FolderSnapshot {
  const folders = new Map<string, FolderRecord>();
  for (const [path, mtime, listed, names] of db.prepare("SELECT path, mtime, listed, names FROM folders").values()) {
    // A byte a character: the folders' names make the paths of every session in them.
    folders.set(String(path), storedFolder(oneByte(String(path)), Number(mtime), Number(listed), oneByte(String(names))));
  }
  const fullChecks = new Map<string, number>();
  for (const [section, at] of db.prepare("SELECT section, at FROM full_checks").values()) fullChecks.set(String(section), Number(at));
  return { folders, fullChecks };
}

/** Inside a write transaction. */
export function saveFolders(db: SqliteDb, folders: readonly FolderRecord[], remove: readonly string[], fullChecks: ReadonlyMap<string, number>): void {
  // Names are kept one a line: a folder with a name holding a newline is never saved (folder-check.ts).
  const put = db.prepare("INSERT OR REPLACE INTO folders (path, mtime, listed, names) VALUES (?, ?, ?, ?)");
  for (const f of folders) put.run(f.path, f.mtimeMs, f.listedMs, f.names.join("\n"));
  const drop = db.prepare("DELETE FROM folders WHERE path = ?");
  for (const path of remove) drop.run(path);
  const check = db.prepare("INSERT OR REPLACE INTO full_checks (section, at) VALUES (?, ?)");
  for (const [section, at] of fullChecks) check.run(section, at);
}
