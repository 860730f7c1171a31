/**
 * A catalog of the layout before file numbers (3: records, header facts and listing rows keyed
 * by path) is brought to the new one when opened, keeping what it holds: the same records,
 * header facts, listing rows and search hits, nothing read again, and no free pages left in
 * the file. Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import type { SqliteDb } from "../../src/catalog/sqlite/sqlite-db.ts";
import type { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";
import { storeAnswers } from "./_store-answers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const KINDS = [listingDigest, usageDigest, filesDigest, docsDigest];

const openRaw = (path: string): Promise<SqliteDb> => ("Bun" in globalThis ? openBunSqlite(path) : openNodeSqlite(path));

const answers = (store: SqliteCatalogStore, dir: string) => storeAnswers(store, dir, KINDS);

/** Turns a catalog of this layout into one of layout 3, as the version before wrote it. */
function toLayout3(db: SqliteDb): void {
  db.exec(`
    DROP TRIGGER heads_put; DROP TRIGGER heads_update; DROP TRIGGER heads_drop; DROP TABLE heads;
    DROP TRIGGER list_dirty_insert; DROP TRIGGER list_dirty_update; DROP TRIGGER list_dirty_delete;
    CREATE TABLE records3 (
      section TEXT NOT NULL, version INTEGER NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
      end_ INTEGER NOT NULL, lines INTEGER NOT NULL, head TEXT NOT NULL, tail TEXT NOT NULL, header_id TEXT,
      state TEXT NOT NULL, final TEXT, PRIMARY KEY (section, path));
    INSERT INTO records3 SELECT r.section, r.version, f.path, r.size, r.mtime, r.end_, r.lines, r.head, r.tail, r.header_id, r.state, r.final
      FROM records r JOIN files f ON f.id = r.file;
    DROP TABLE records; ALTER TABLE records3 RENAME TO records;
    CREATE TABLE rows3 (
      path TEXT PRIMARY KEY, version INTEGER NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL, id TEXT, cwd TEXT NOT NULL,
      name TEXT, parent TEXT, created REAL, modified REAL, messages INTEGER NOT NULL, first TEXT NOT NULL, bad TEXT, odd INTEGER NOT NULL);
    INSERT INTO rows3 SELECT * FROM list_rows; DROP TABLE list_rows; ALTER TABLE rows3 RENAME TO list_rows;
    CREATE TABLE heads (
      section TEXT NOT NULL, path TEXT NOT NULL, version INTEGER NOT NULL, record INTEGER NOT NULL,
      kind INTEGER NOT NULL, created TEXT, parent TEXT, bad TEXT, PRIMARY KEY (section, path)) WITHOUT ROWID;
    CREATE TRIGGER heads_drop AFTER DELETE ON records WHEN old.section IN ('usage') BEGIN
      DELETE FROM heads WHERE section = old.section AND path = old.path AND record = old.rowid; END;
    CREATE TRIGGER list_dirty_insert AFTER INSERT ON records WHEN new.section = 'listing'
      BEGIN INSERT OR IGNORE INTO list_dirty (path) VALUES (new.path); END;
    DROP INDEX docs_file; DROP INDEX docs_text_ts; DROP INDEX docs_odd_ts;
    CREATE TABLE docs3 (
      id INTEGER PRIMARY KEY, file INTEGER NOT NULL, off INTEGER NOT NULL, len INTEGER NOT NULL, line INTEGER NOT NULL,
      ts TEXT, role NOT NULL, part INTEGER NOT NULL, text INTEGER NOT NULL);
    INSERT INTO docs3 SELECT id, file, off, len, line, CASE WHEN typeof(ts) = 'integer' THEN strftime('%Y-%m-%dT%H:%M:%fZ', ts / 1000.0, 'unixepoch') ELSE ts END,
      role, part, text FROM docs;
    DROP TABLE docs; ALTER TABLE docs3 RENAME TO docs;
    CREATE INDEX docs_file ON docs (file, off); CREATE INDEX docs_text ON docs (text);
    DELETE FROM files WHERE id NOT IN (SELECT file FROM docs);
    PRAGMA user_version = 3;`);
}

test(`SQLite brings a catalog of the layout before file numbers to the new one, keeping every answer (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-migrate-"));
  try {
    const fs = detectFileSystem();
    const files = ["a", "b", "c", "d"].map((name) => join(dir, `${name}.jsonl`));
    for (const [i, file] of files.entries()) await fs.writeAtomic(file, utf8(sessionText(`s${i}`, 2 + i, i === 1 ? { parentSession: files[0] } : {})));
    await fs.writeAtomic(join(dir, "e.jsonl"), utf8('{"not":"a session"}\n'));
    files.push(join(dir, "e.jsonl"));
    const path = join(dir, "catalog.sqlite");
    const refresh = async () => {
      const catalog = new Catalog(fs, { store: await openSqliteStore(path) });
      try {
        return (await catalog.refresh(KINDS, files, { listedDirs: [dir] })).counts;
      } finally {
        catalog.close();
      }
    };
    await refresh();
    let store = await openSqliteStore(path);
    const before = await answers(store, dir);
    store.close();

    const raw = await openRaw(path);
    toLayout3(raw);
    raw.close();

    store = await openSqliteStore(path);
    try {
      assert.deepEqual(await answers(store, dir), before);
    } finally {
      store.close();
    }
    const probe = await openRaw(path);
    try {
      assert.equal(Number(probe.prepare("PRAGMA user_version").get()?.user_version), 4);
      assert.equal(Number(probe.prepare("PRAGMA freelist_count").get()?.freelist_count), 0, "compacted");
      const columns = probe.prepare("PRAGMA table_info(records)").all().map((row) => row.name);
      assert.ok(columns.includes("file") && !columns.includes("path"));
      assert.equal(Number(probe.prepare("SELECT count(*) AS n FROM list_dirty").get()?.n), 0, "the rows were kept, not made anew");
      assert.deepEqual(probe.prepare("SELECT DISTINCT typeof(ts) AS t FROM docs").values(), [["integer"]], "timestamps as numbers");
    } finally {
      probe.close();
    }
    const counts = await refresh();
    assert.equal(counts.read, 0, "nothing read again");
    assert.equal(counts.unchanged, files.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
