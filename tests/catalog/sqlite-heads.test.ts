/**
 * The SQLite catalog keeps each usage record's header facts in a table of their own (what
 * `stats` puts sessions in order by, without reading the states): they are the facts of the
 * records as they are after every save, a removal, a write by a program that does not know the
 * table (its triggers do the work), and in a catalog made before the table (filled when opened).
 * Skipped where the runtime has no SQLite.
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
import { eachHeadOf } from "../../src/catalog/sqlite/sqlite-heads.ts";
import { type CatalogStore, recordState, type StoredHead } from "../../src/catalog/store.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;

/** The facts as the records themselves give them, by path. */
async function factsOfRecords(store: CatalogStore): Promise<Map<string, Omit<StoredHead, "row" | "file">>> {
  const facts = new Map<string, Omit<StoredHead, "row" | "file">>();
  for (const [path, record] of await store.load(usageDigest)) {
    const { header, rejected, badHeader } = recordState(record);
    const head: Omit<StoredHead, "row" | "file"> = { path, session: header !== null && !rejected };
    if (typeof header?.timestamp === "string") head.created = header.timestamp;
    if (typeof header?.parentSession === "string") head.parentSession = header.parentSession;
    if (badHeader !== undefined) head.badHeader = badHeader;
    facts.set(path, head);
  }
  return facts;
}

async function heads(store: CatalogStore): Promise<Map<string, Omit<StoredHead, "row" | "file">>> {
  return new Map((await store.loadHeads!(usageDigest)).map(({ row: _, file: __, ...head }) => [head.path, head]));
}

test(`SQLite keeps each usage record's header facts, as the records are, whoever writes them (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-heads-"));
  try {
    const fs = detectFileSystem();
    const [a, b, c, d, e] = ["a", "b", "c", "d", "e"].map((name) => join(dir, `${name}.jsonl`));
    await fs.writeAtomic(a, utf8(sessionText("sa", 3)));
    await fs.writeAtomic(b, utf8(sessionText("sb", 2, { parentSession: a })));
    await fs.writeAtomic(c, utf8('{"not":"a session"}\n'));
    await fs.writeAtomic(d, utf8(JSON.stringify({ type: "session", version: 3, id: 7, timestamp: "2025-06-01T00:00:00.000Z", cwd: "/x" }) + "\n"));
    // A header whose timestamp is not a string, and no newline at the end (the record's `final`).
    await fs.writeAtomic(e, utf8(JSON.stringify({ type: "session", version: 3, id: "se", timestamp: 5, cwd: "/x" })));
    const path = join(dir, "catalog.sqlite");
    const refresh = async (files: string[]) => {
      const catalog = new Catalog(fs, { store: await openSqliteStore(path) });
      try {
        await catalog.refresh([usageDigest, listingDigest], files, { listedDirs: [dir] });
      } finally {
        catalog.close();
      }
    };
    const check = async (what: string, size: number) => {
      const store = await openSqliteStore(path);
      try {
        const expected = await factsOfRecords(store);
        assert.equal(expected.size, size, what);
        assert.deepEqual(await heads(store), expected, what);
        // Each head's row is its record's.
        for (const head of await store.loadHeads!(usageDigest)) {
          assert.equal((await store.loadRows!(usageDigest, [head.row])).get(head.row)?.file, head.file, what);
        }
      } finally {
        store.close();
      }
    };
    await refresh([a, b, c, d, e]);
    await check("after the first save", 5);
    const facts = await heads(await openSqliteStore(path));
    assert.deepEqual(facts.get(b), { path: b, session: true, created: "2025-06-01T10:00:00.000Z", parentSession: a });
    assert.equal(facts.get(c)?.session, false);
    assert.match(facts.get(d)?.badHeader ?? "", /"id" is a number/);
    assert.deepEqual(facts.get(e), { path: e, session: true });

    // An append (the record replaced), a file gone (its record removed).
    await fs.append(a, utf8(sessionText("sa", 1, { from: 3 })));
    await refresh([a, b, c, d]);
    await check("after an append and a removal", 4);

    // Written by a program that knows nothing of the table: the triggers keep it.
    const raw = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    const state = JSON.stringify({ header: { id: "sz", timestamp: "2025-07-01T00:00:00.000Z", cwd: "/y", parentSession: b }, rejected: false, data: { keys: [], rows: 0, packed: "", odd: [] } });
    raw.prepare("INSERT OR IGNORE INTO files (path) VALUES (?)").run(join(dir, "z.jsonl"));
    raw.prepare(`INSERT OR REPLACE INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state, final)
      SELECT section, version, (SELECT id FROM files WHERE path = ?), size, mtime, end_, lines, head, tail, header_id, ?, NULL FROM records WHERE section = 'usage' AND file = (SELECT id FROM files WHERE path = ?)`).run(join(dir, "z.jsonl"), state, a);
    raw.prepare("UPDATE records SET state = ? WHERE section = 'usage' AND file = (SELECT id FROM files WHERE path = ?)").run(state.replace("2025-07-01", "2025-08-01"), c);
    raw.prepare("DELETE FROM records WHERE section = 'usage' AND file = (SELECT id FROM files WHERE path = ?)").run(d);
    raw.close();
    await check("after writes by another program", 4);
    // A catalog from before the table: it is filled when next opened.
    const old = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    old.exec("DROP TRIGGER heads_put; DROP TRIGGER heads_update; DROP TRIGGER heads_drop; DROP TABLE heads; PRAGMA application_id = 0");
    old.close();
    await check("a catalog made before the table", 4);

    // A state of the wrong shape: the facts say so (the reader then reads the files instead).
    const spoil = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    spoil.prepare(`UPDATE records SET state = '{"header":"x","rejected":false,"data":null}' WHERE section = 'usage' AND file = (SELECT id FROM files WHERE path = ?)`).run(b);
    spoil.close();
    const store = await openSqliteStore(path);
    try {
      await assert.rejects(store.loadHeads!(usageDigest), SyntaxError);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite hands its heads one at a time, a query of 2,048 after another, all of them in their paths' order (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-heads-"));
  try {
    const path = join(dir, "catalog.sqlite");
    const db = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    // Only the two tables the query reads: more files than three queries take, at the edges too.
    db.exec("CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE)");
    db.exec("CREATE TABLE heads (section TEXT NOT NULL, file INTEGER NOT NULL, version INTEGER NOT NULL, record INTEGER NOT NULL, kind INTEGER NOT NULL, created TEXT, parent TEXT, bad TEXT, PRIMARY KEY (section, file)) WITHOUT ROWID");
    const count = 3 * 2048 + 5;
    const put = db.prepare("INSERT INTO files (id, path) VALUES (?, ?)");
    const head = db.prepare("INSERT INTO heads (section, file, version, record, kind, created, parent, bad) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    db.exec("BEGIN");
    for (let i = 0; i < count; i++) {
      // Ids out of the paths' order, and names that share prefixes ("/s/10" before "/s/2").
      const id = (i * 7919) % count + 1;
      put.run(id, `/s/${i}.jsonl`);
      head.run("usage", id, 1, 100 + i, i % 3 === 0 ? 0 : 1, `2025-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`, i % 5 === 0 ? `/s/${i - 1}.jsonl` : null, i % 11 === 0 ? "bad" : null);
      // Another section's head and another version's: not handed.
      head.run("listing", id, 1, 1, 1, null, null, null);
    }
    put.run(count + 1, "/s/other-version.jsonl");
    head.run("usage", count + 1, 2, 1, 1, null, null, null);
    db.exec("COMMIT");
    const seen: StoredHead[] = [];
    eachHeadOf(db, { name: "usage", version: 1 }, (h) => seen.push(h));
    db.close();
    const paths = Array.from({ length: count }, (_, i) => `/s/${i}.jsonl`).sort();
    assert.deepEqual(seen.map((h) => h.path), paths);
    const i = 55;
    const file = (i: number) => (i * 7919) % count + 1;
    assert.deepEqual(seen.find((h) => h.path === `/s/${i}.jsonl`), { path: `/s/${i}.jsonl`, row: 100 + i, file: file(i), session: true, created: "2025-01-01T00:00:55.000Z", parentSession: "/s/54.jsonl", badHeader: "bad" });
    assert.deepEqual(seen.find((h) => h.path === "/s/3.jsonl"), { path: "/s/3.jsonl", row: 103, file: file(3), session: false, created: "2025-01-01T00:00:03.000Z" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite's heads one at a time are the heads it loads whole (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-heads-"));
  try {
    const fs = detectFileSystem();
    const files = ["a", "b", "c"].map((name) => join(dir, `${name}.jsonl`));
    await fs.writeAtomic(files[0], utf8(sessionText("sa", 3)));
    await fs.writeAtomic(files[1], utf8(sessionText("sb", 2, { parentSession: files[0] })));
    await fs.writeAtomic(files[2], utf8('{"not":"a session"}\n'));
    const store = await openSqliteStore(join(dir, "catalog.sqlite"));
    const catalog = new Catalog(fs, { store });
    try {
      await catalog.refresh([usageDigest], files, { listedDirs: [dir] });
      const one: StoredHead[] = [];
      await store.eachHead!(usageDigest, (h) => one.push(h));
      assert.equal(one.length, 3);
      assert.deepEqual(one, await store.loadHeads!(usageDigest));
    } finally {
      catalog.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`SQLite reads the header facts of a long state from its head, before its data, and of any other from the whole (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-heads-"));
  try {
    const path = join(dir, "catalog.sqlite");
    // Made with triggers from before: a stand-in that the store makes again when it opens the file.
    (await openSqliteStore(path)).close();
    const before = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    before.exec("DROP TRIGGER heads_put; CREATE TRIGGER heads_put AFTER INSERT ON records BEGIN SELECT 1; END; PRAGMA application_id = 0");
    before.close();
    (await openSqliteStore(path)).close();
    const db = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
    const long = "A".repeat(100_000);
    const header = { id: "s", timestamp: "2025-07-01T00:00:00.000Z", cwd: "/y", parentSession: "/p.jsonl" };
    const states: Record<string, string> = {
      // The data of a long state is not read: here it is not even JSON, as a text cut short would be.
      long: JSON.stringify({ header, rejected: false, data: { packed: long } }).slice(0, -2),
      // Short: read whole, as always (not JSON: the wrong shape).
      short: JSON.stringify({ header, rejected: false, data: { packed: "A" } }).slice(0, -2),
      // A `,"data":` within the header comes first: the whole is read.
      nested: JSON.stringify({ header: { ...header, cwd: { x: 1, data: 2 } }, rejected: false, data: { packed: long } }),
      // A bad header's note written after the data: the whole is read.
      noted: JSON.stringify({ header: null, rejected: true, data: { packed: long }, badHeader: "no id" }),
      // The data past the part of a long state looked at first (its header longer than that): the whole is read.
      far: JSON.stringify({ header: { ...header, cwd: "/".repeat(70_000) }, rejected: false, data: { packed: long } }),
      // A bad header's note before the data: the head is read, and has it.
      early: JSON.stringify({ header: null, rejected: true, badHeader: "no id", data: { packed: long } }).slice(0, -2),
    };
    const put = db.prepare(`INSERT INTO records (section, version, file, size, mtime, end_, lines, head, tail, header_id, state, final)
      VALUES ('usage', 1, ?, 0, 0, 0, 0, '', '', NULL, ?, NULL)`);
    for (const [name, state] of Object.entries(states)) {
      db.prepare("INSERT INTO files (path) VALUES (?)").run(`/${name}.jsonl`);
      put.run(Number(db.prepare("SELECT id FROM files WHERE path = ?").get(`/${name}.jsonl`)?.id), state);
    }
    const heads = new Map<string, unknown>();
    for (const [name, kind, created, parent, bad] of db.prepare("SELECT f.path, h.kind, h.created, h.parent, h.bad FROM heads h JOIN files f ON f.id = h.file").values()) {
      heads.set(String(name), [Number(kind), created, parent, bad]);
    }
    db.close();
    assert.deepEqual(Object.fromEntries(heads), {
      "/long.jsonl": [1, header.timestamp, header.parentSession, null],
      "/short.jsonl": [-1, null, null, null],
      "/nested.jsonl": [1, header.timestamp, header.parentSession, null],
      "/noted.jsonl": [0, null, null, "no id"],
      "/far.jsonl": [1, header.timestamp, header.parentSession, null],
      "/early.jsonl": [0, null, null, "no id"],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
