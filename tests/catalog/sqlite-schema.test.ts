/**
 * The SQLite catalog's setup: a file this build set up is opened without making anything (no
 * write transaction: no wait for another process writing), and its mark changes with any
 * statement of the setup. Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { SqliteDb } from "../../src/catalog/sqlite/sqlite-db.ts";
import { LAYOUT_MARK, setUpSchema } from "../../src/catalog/sqlite/sqlite-schema.ts";
import { openRawSqlite, sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const driver = "driver" in binding ? binding.driver : "no SQLite";

/**
 * The fingerprint of what the setup runs on a new file (every statement but the full-text index,
 * whose form depends on the SQLite at hand), and the `LAYOUT_MARK` it was taken with. When the
 * setup changes, change `LAYOUT_MARK` (files set up by this build are then set up again) and
 * these two with it.
 */
const SETUP_FINGERPRINT = "51a68d3fa74d32f7";
const FINGERPRINT_MARK = 0x70690403;

/** A 64-bit FNV-1a of the statements, as hex. */
function fingerprint(statements: readonly string[]): string {
  let hash = 0xcbf29ce484222325n;
  for (const char of statements.join("\u0000")) {
    hash ^= BigInt(char.codePointAt(0)!);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

test(`the setup's statements are those LAYOUT_MARK was given for (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-schema-"));
  const db = await openRawSqlite(join(dir, "catalog.sqlite"));
  try {
    const statements: string[] = [];
    const recording: SqliteDb = {
      driver: db.driver,
      exec: (sql) => (statements.push(sql), db.exec(sql)),
      prepare: (sql) => (statements.push(sql), db.prepare(sql)),
      close: () => db.close(),
    };
    setUpSchema(recording, {
      transaction: (work) => work(),
      markRows() {},
      tryExec(sql) {
        try {
          db.exec(sql);
          return true;
        } catch {
          return false;
        }
      },
    });
    const found = fingerprint(statements.filter((sql) => !sql.startsWith("PRAGMA application_id")));
    assert.deepEqual(
      { fingerprint: found, mark: LAYOUT_MARK },
      { fingerprint: SETUP_FINGERPRINT, mark: FINGERPRINT_MARK },
      "the setup changed: give LAYOUT_MARK (src/catalog/sqlite/sqlite-schema.ts) a new value, and this test the new fingerprint and mark",
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`a catalog this build set up opens while another process writes to it, without waiting (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-schema-"));
  const path = join(dir, "catalog.sqlite");
  try {
    (await openSqliteStore(path)).close();
    const writer = await openRawSqlite(path);
    try {
      writer.exec("BEGIN IMMEDIATE");
      writer.exec("INSERT INTO full_checks (section, at) VALUES ('elsewhere', 1)");
      // The setup's transaction would wait here for the writer (5 s, then fail, and again).
      const started = Date.now();
      const store = await openSqliteStore(path);
      try {
        assert.equal(store.supportsDocs, true);
        assert.ok(Date.now() - started < 4000, "opened without waiting for the writer's lock");
      } finally {
        store.close();
      }
      writer.exec("COMMIT");
    } finally {
      writer.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`a catalog set up by another build, or whose full-text index is gone, is set up again (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-schema-"));
  const path = join(dir, "catalog.sqlite");
  const raw = async (work: (db: SqliteDb) => unknown) => {
    const db = await openRawSqlite(path);
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  const has = (name: string) => raw((db) => db.prepare("SELECT 1 AS found FROM sqlite_master WHERE name = ?").get(name) !== undefined);
  try {
    (await openSqliteStore(path)).close();
    assert.equal(await raw((db) => Number(db.prepare("PRAGMA application_id").get()?.application_id)), LAYOUT_MARK);
    // Another build's file, without an index this build makes.
    await raw((db) => db.exec("DROP INDEX folders_counts; PRAGMA application_id = 7"));
    (await openSqliteStore(path)).close();
    assert.equal(await has("folders_counts"), true);
    assert.equal(await raw((db) => Number(db.prepare("PRAGMA application_id").get()?.application_id)), LAYOUT_MARK);
    // Marked as this build's, but without its full-text index (made by a runtime without FTS5).
    await raw((db) => db.exec("DROP TABLE docs_fts"));
    const store = await openSqliteStore(path);
    store.close();
    assert.equal(store.supportsDocs, true);
    assert.equal(await has("docs_fts"), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`a full-text index made with positions (an older build's) is made again, and the documents with it (${driver})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-schema-"));
  const path = join(dir, "catalog.sqlite");
  const raw = async <T>(work: (db: SqliteDb) => T) => {
    const db = await openRawSqlite(path);
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  const column = (sql: string) => raw((db) => db.prepare(sql).values().map((row) => String(row[0])));
  try {
    (await openSqliteStore(path)).close();
    await raw((db) => {
      db.exec("DROP TABLE docs_fts");
      db.exec(`CREATE VIRTUAL TABLE docs_fts USING fts5(body, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'")`);
      db.exec("INSERT INTO texts (id, hash, uses) VALUES (1, 7, 1); INSERT INTO docs_fts (rowid, body) VALUES (1, 'flaky parser')");
      db.exec("INSERT INTO files (id, path) VALUES (1, '/s/a.jsonl')");
      db.exec("INSERT INTO docs (file, off, len, line, ts, role, part, text) VALUES (1, 0, 10, 2, 0, 0, 0, 1)");
      for (const section of ["docs", "listing"]) {
        db.exec(`INSERT INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state) VALUES ('${section}', 2, 1, 10, 1, 10, 2, 'h', 't', 'a', '{}')`);
        db.exec(`INSERT INTO full_checks (section, at) VALUES ('${section}@2', 1)`);
      }
      db.exec("PRAGMA application_id = 0");
    });
    const store = await openSqliteStore(path);
    store.close();
    assert.equal(store.supportsDocs, true);
    const [made] = await column("SELECT sql FROM sqlite_master WHERE name = 'docs_fts'");
    assert.match(made, /detail=none/);
    // The documents go with their index; the docs section's records too, so its files are read again.
    assert.deepEqual(await column("SELECT count(*) FROM docs UNION ALL SELECT count(*) FROM texts"), ["0", "0"]);
    assert.deepEqual(await column("SELECT section FROM records"), ["listing"]);
    assert.deepEqual(await column("SELECT section FROM full_checks"), ["listing@2"]);
    // Opened again: nothing more goes.
    (await openSqliteStore(path)).close();
    assert.deepEqual(await column("SELECT section FROM records"), ["listing"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
