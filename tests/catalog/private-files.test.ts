/**
 * The catalog holds the full text of 0600 sessions, so its folder is 0700 and every file in it
 * 0600: when the catalog makes them (the file store's sections, the SQLite file and its -wal and
 * -shm), and when it opens a folder an older version left readable by others.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { openCatalog, sqliteCatalogPath } from "../../src/catalog/open-catalog.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { HOME, memoryFs, runCli } from "../cli/_harness.ts";
import { usageSessions } from "../cli/_usage-sessions.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";

const skip = process.platform === "win32" ? "no POSIX permissions on Windows" : false;
const mode = (path: string) => statSync(path).mode & 0o777;

/** Each entry of `dir` (and `dir` itself) with its mode, as "name 0600". */
function modes(dir: string): string[] {
  return [`. ${mode(dir).toString(8)}`, ...readdirSync(dir).sort().map((name) => `${name} ${mode(join(dir, name)).toString(8)}`)];
}

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-private-"));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two session files in `dir`/s, indexed through a catalog opened with `catalogMode`. */
async function index(dir: string, cacheDir: string, catalogMode: "file" | "sqlite", whileOpen = () => {}): Promise<string | undefined> {
  const fs = detectFileSystem();
  const files = [join(dir, "s", "a.jsonl"), join(dir, "s", "b.jsonl")];
  mkdirSync(join(dir, "s"), { recursive: true });
  for (const [i, path] of files.entries()) await fs.writeAtomic(path, utf8(sessionText(`p${i}`, 3)));
  const notes: string[] = [];
  const catalog = await openCatalog({ fs, cacheDir, mode: catalogMode, realDisk: true, note: (m) => notes.push(m) });
  try {
    assert.deepEqual(notes, []);
    await catalog.refresh([listingDigest, usageDigest], files);
    whileOpen();
    return catalog.store?.kind;
  } finally {
    catalog.close();
  }
}

test("file catalog: a new folder is 0700 and its sections 0600", { skip }, () =>
  withDir(async (dir) => {
    const cache = join(dir, "cache", "pi-session");
    assert.equal(await index(dir, cache, "file"), "file");
    assert.deepEqual(modes(cache), [". 700", `listing-v${listingDigest.version}.jsonl 600`, `usage-v${usageDigest.version}.jsonl 600`]);
  }));

test("file catalog: a folder and files left readable by others are made private when the catalog opens", { skip }, () =>
  withDir(async (dir) => {
    const cache = join(dir, "pi-session");
    mkdirSync(join(cache, `listing-v${listingDigest.version}.jsonl.lock`), { recursive: true });
    writeFileSync(join(cache, `listing-v${listingDigest.version}.jsonl`), "");
    writeFileSync(join(cache, "pick-first-page-0123abcd.json"), "{}");
    chmodSync(cache, 0o755);
    chmodSync(join(cache, `listing-v${listingDigest.version}.jsonl.lock`), 0o755);
    chmodSync(join(cache, `listing-v${listingDigest.version}.jsonl`), 0o644);
    chmodSync(join(cache, "pick-first-page-0123abcd.json"), 0o666);
    const catalog = await openCatalog({ fs: detectFileSystem(), cacheDir: cache, mode: "file", realDisk: true });
    catalog.close();
    assert.deepEqual(modes(cache), [". 700", `listing-v${listingDigest.version}.jsonl 600`, `listing-v${listingDigest.version}.jsonl.lock 700`, "pick-first-page-0123abcd.json 600"]);
  }));

const binding = await sqliteBinding();
const noSqlite = skip || ("skip" in binding ? binding.skip : false);

test(`SQLite catalog: the folder is 0700, the database and its -wal and -shm 0600 (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip: noSqlite }, () =>
  withDir(async (dir) => {
    const cache = join(dir, "cache", "pi-session");
    let listed: string[] = [];
    // While it is open: the -wal and -shm files may be gone once the last connection closes.
    const kind = await index(dir, cache, "sqlite", () => void (listed = modes(cache)));
    assert.match(kind ?? "", /^sqlite/);
    assert.deepEqual(listed, [". 700", "catalog-v1.sqlite 600", "catalog-v1.sqlite-shm 600", "catalog-v1.sqlite-wal 600"]);
    for (const line of modes(cache)) assert.match(line, /^\. 700$| 600$/);
  }));

test(`SQLite catalog: a database left 0644 (and its -wal) is made 0600 when opened (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip: noSqlite }, () =>
  withDir(async (dir) => {
    const cache = join(dir, "pi-session");
    await index(dir, cache, "sqlite");
    chmodSync(cache, 0o755);
    for (const name of readdirSync(cache)) chmodSync(join(cache, name), 0o644);
    const catalog = await openCatalog({ fs: detectFileSystem(), cacheDir: cache, mode: "sqlite", realDisk: true });
    try {
      await catalog.refresh([listingDigest], []);
    } finally {
      catalog.close();
    }
    for (const line of modes(cache)) assert.match(line, /^\. 700$| 600$/);
    assert.ok(statSync(sqliteCatalogPath(cache)).isFile());
  }));

test("index: the catalog folder and its files are private on any file system with permissions (memory)", async () => {
  const fs = memoryFs();
  await usageSessions(fs);
  const cache = `${HOME}/.cache/pi-session`;
  assert.equal((await runCli(["index"], { fs })).code, 0);
  assert.equal((await fs.stat(cache))!.mode & 0o777, 0o700);
  const files = (await fs.list(cache)).filter((e) => e.isFile);
  assert.ok(files.length >= 2);
  for (const file of files) assert.equal((await fs.stat(`${cache}/${file.name}`))!.mode & 0o777, 0o600, file.name);
});
