/**
 * A cache in trouble never fails the caller: a corrupt, unwritable or locked cache (or a
 * database file that is not one) gives the right answer by reading the files, says so once,
 * and a corrupt file is replaced by a good one on the next save.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { openCatalog, sqliteCatalogPath } from "../../src/catalog/open-catalog.ts";
import { recordState } from "../../src/catalog/store.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { rowCount } from "../../src/core/digest/usage-state.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { FsError } from "../../src/io/file-system.ts";
import { readOnlyFs } from "../cli/_harness.ts";
import { CountingFileSystem, sessionText, sqliteBinding, tickingFs, utf8 } from "./_helpers.ts";

const FILES = ["/s/a.jsonl", "/s/b.jsonl"];

async function corpus(fs = tickingFs()) {
  await fs.mkdir("/s", { recursive: true });
  for (const [i, path] of FILES.entries()) await fs.writeAtomic(path, utf8(sessionText(`s${i}`, 5)));
  return fs;
}

async function rows(catalog: Catalog): Promise<number> {
  const view = await catalog.refresh([listingDigest, usageDigest], FILES);
  return [...view.records(usageDigest).values()].reduce((n, r) => n + rowCount(recordState(r).data), 0);
}

test("catalog: a cache file cut short keeps its whole records; the cut one counts as missing, is read again and replaced", async () => {
  const fs = await corpus();
  await new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") }).refresh([listingDigest, usageDigest], FILES);
  for (const name of [`listing-v${listingDigest.version}.jsonl`, `usage-v${usageDigest.version}.jsonl`]) {
    const good = new TextDecoder().decode((await fs.read(`/cache/${name}`).next()).value);
    // The format line, the first record and half of the second.
    const cut = good.indexOf("\n", good.indexOf("\n") + 1) + 1 + 20;
    await fs.writeAtomic(`/cache/${name}`, utf8(good.slice(0, cut)));
  }
  const notes: string[] = [];
  const catalog = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache"), note: (m) => notes.push(m) });
  const view = await catalog.refresh([listingDigest, usageDigest], FILES);
  assert.equal([...view.records(usageDigest).values()].reduce((n, r) => n + rowCount(recordState(r).data), 0), 10);
  assert.deepEqual([view.counts.unchanged, view.counts.read], [1, 1]);
  assert.deepEqual(notes, []);
  const healed: string[] = [];
  const again = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache"), note: (m) => healed.push(m) });
  const next = await again.refresh([listingDigest, usageDigest], FILES);
  assert.deepEqual(healed, []);
  assert.equal(next.counts.unchanged, 2);
});

test("catalog: a cache file that is not the catalog's format is noted once, read around, and replaced", async () => {
  const fs = await corpus();
  await new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") }).refresh([listingDigest, usageDigest], FILES);
  for (const name of [`listing-v${listingDigest.version}.jsonl`, `usage-v${usageDigest.version}.jsonl`]) await fs.writeAtomic(`/cache/${name}`, utf8("garbage {\n"));
  const notes: string[] = [];
  const catalog = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache"), note: (m) => notes.push(m) });
  assert.equal(await rows(catalog), 10);
  assert.equal(await rows(catalog), 10);
  assert.equal(notes.length, 1);
  assert.match(notes[0], /^The catalog at \/cache cannot be read \(Cannot read the catalog file .*the first line is not the catalog's format line/);
  const again = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") });
  assert.equal((await again.refresh([listingDigest, usageDigest], FILES)).counts.unchanged, 2);
});

test("catalog: an unwritable cache is noted once and the answer is still right", async () => {
  const fs = await corpus();
  const notes: string[] = [];
  const catalog = new Catalog(readOnlyFs(fs, ["/cache"]), { store: new FileCatalogStore(readOnlyFs(fs, ["/cache"]), "/cache"), note: (m) => notes.push(m) });
  assert.equal(await rows(catalog), 10);
  assert.equal(notes.length, 1);
  assert.match(notes[0], /cannot be updated .*permission denied.*the next run reads the files again/);
});

test("catalog: a cache locked by another process is not waited on for long", async () => {
  // Real time: the lock's age decides whether it is stale.
  const fs = await corpus(new MemoryFileSystem());
  await fs.mkdir(`/cache/listing-v${listingDigest.version}.jsonl.lock`, { recursive: true });
  const notes: string[] = [];
  const catalog = new Catalog(fs, { store: new FileCatalogStore(fs, "/cache", { lockTimeoutMs: 50 }), note: (m) => notes.push(m) });
  assert.equal(await rows(catalog), 10);
  assert.equal(notes.length, 1);
  assert.match(notes[0], new RegExp(`listing-v${listingDigest.version}\\.jsonl\\.lock is held by an unknown process`));
});

const binding = await sqliteBinding();

test(`openCatalog: a database file that is not one is set aside (said in a note) and a new one built (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip: "skip" in binding ? binding.skip : false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-badsqlite-"));
  try {
    const garbage = "this is not a database\n".repeat(100);
    writeFileSync(sqliteCatalogPath(dir), garbage);
    const notes: string[] = [];
    const now = () => new Date("2026-01-02T03:04:05.678Z");
    const catalog = await openCatalog({ fs: detectFileSystem(), cacheDir: dir, realDisk: true, note: (m) => notes.push(m), now });
    assert.match(catalog.store?.kind ?? "", /^sqlite/);
    const aside = `${sqliteCatalogPath(dir)}.broken-2026-01-02T03-04-05-678Z`;
    assert.equal(notes.length, 1);
    assert.equal(notes[0], `The catalog at ${sqliteCatalogPath(dir)} was damaged (file is not a database); it is kept as ${aside} and a new one is built`);
    assert.equal(readFileSync(aside, "utf8"), garbage);
    catalog.close();
    // The new one works, and opening it again says nothing.
    await corpus();
    const again: string[] = [];
    const next = await openCatalog({ fs: detectFileSystem(), cacheDir: dir, realDisk: true, note: (m) => again.push(m) });
    assert.deepEqual(again, []);
    next.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("catalog: a session file that cannot be read is left out and noted once, the others are listed", async () => {
  const fs = await corpus();
  // The second file refuses to be read, as a file of another user's with mode 0600 does.
  const denied = new class extends CountingFileSystem {
    override read(path: string, range?: Parameters<MemoryFileSystem["read"]>[1]) {
      if (path === FILES[1]) throw new FsError("PermissionDenied", path, `Cannot read "${path}": permission denied`);
      return super.read(path, range);
    }
  }(fs);
  const notes: string[] = [];
  const catalog = new Catalog(denied, { note: (message) => notes.push(message) });
  for (let round = 0; round < 2; round++) {
    const view = await catalog.refresh([listingDigest], FILES);
    assert.deepEqual([...view.records(listingDigest).keys()], [FILES[0]]);
    assert.equal(view.counts.unreadable, 1);
  }
  assert.deepEqual(notes, [`1 session file could not be read and is left out (Cannot read "${FILES[1]}": permission denied)`]);
});
