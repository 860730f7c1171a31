/**
 * A damaged SQLite catalog is never kept: `index --rebuild` checks the whole file and, when it
 * is damaged, sets it aside (saying where) and builds a new one; a file that is not a database
 * at all is set aside by any command. Through the CLI on the real disk, with this runtime's
 * SQLite (skipped where there is none).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { runCli } from "../cli/_harness.ts";
import { sessionText, sqliteBinding } from "./_helpers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const NOW = new Date("2026-01-02T03:04:05.678Z");

async function withHome(body: (home: string, run: (...argv: string[]) => ReturnType<typeof runCli>) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "pi-session-damaged-"));
  try {
    const sessions = join(home, ".pi", "agent", "sessions", "--work-p--");
    mkdirSync(sessions, { recursive: true });
    for (let i = 0; i < 6; i++) writeFileSync(join(sessions, `2025-06-01T10-00-0${i}-000Z_d${i}.jsonl`), sessionText(`d${i}`, 20));
    const run = (...argv: string[]) => runCli(argv, { fs: detectFileSystem(), home, processCwd: "/work/p", now: NOW });
    await body(home, run);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

test(`index --rebuild sets a damaged SQLite catalog aside, says so, and builds a new one (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, () =>
  withHome(async (home, run) => {
    const first = await run("index", "--json");
    assert.equal(first.code, 0, first.stderr);
    assert.match(JSON.parse(first.stdout).store.kind, /^sqlite/);
    const cache = join(home, ".cache", "pi-session");
    const db = join(cache, "catalog-v1.sqlite");
    // All of it in the main file first (a binding may leave the log beside it on close).
    const raw = "Bun" in globalThis ? await openBunSqlite(db) : await openNodeSqlite(db);
    raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    raw.close();
    // Every page after the first (the schema) overwritten: the file still opens, its tables do not read.
    const size = statSync(db).size;
    assert.ok(size > 8192, `${size} bytes`);
    const fd = openSync(db, "r+");
    writeSync(fd, new Uint8Array(size - 4096).fill(0x5a), 0, size - 4096, 4096);
    closeSync(fd);
    const rebuilt = await run("index", "--rebuild", "--json");
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(JSON.parse(rebuilt.stdout).counts.read, 6);
    const aside = `${db}.broken-2026-01-02T03-04-05-678Z`;
    assert.match(rebuilt.stderr, new RegExp(`The catalog at ${db.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} was damaged \\(.+\\); it is kept as .*broken-2026-01-02T03-04-05-678Z and a new one is built`));
    assert.equal(statSync(aside).size, size);
    // The new catalog holds everything: the next run reads nothing and says nothing.
    const after = await run("index", "--json");
    assert.equal(after.stderr, "");
    assert.equal(JSON.parse(after.stdout).counts.unchanged, 6);
    assert.ok(readdirSync(cache).includes("catalog-v1.sqlite"));
  }));

test(`any command sets aside a catalog file that is not a database and builds a new one (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, () =>
  withHome(async (home, run) => {
    const cache = join(home, ".cache", "pi-session");
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, "catalog-v1.sqlite"), "not a database ".repeat(1000));
    const list = await run("list", "--all");
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /was damaged \(file is not a database\); it is kept as .*catalog-v1\.sqlite\.broken-2026-01-02T03-04-05-678Z and a new one is built/);
    const index = await run("index", "--json");
    assert.equal(index.code, 0, index.stderr);
    assert.match(JSON.parse(index.stdout).store.kind, /^sqlite/);
    assert.equal(index.stderr, "");
  }));
