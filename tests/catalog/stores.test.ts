/**
 * The store contract for every store this runtime has: the file store over memory and over
 * the disk, and SQLite through this runtime's binding (bun:sqlite under Bun, node:sqlite
 * under Deno and Node ≥ 22.5; skipped, saying why, on Node 20).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { readBytes } from "../../src/io/read-bytes.ts";
import { arrayRows, type NodeStatement } from "../../src/catalog/sqlite/node-sqlite.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sqliteBinding } from "./_helpers.ts";
import { storeContract } from "./_store-contract.ts";

const tempDir = () => mkdtempSync(join(tmpdir(), "pi-session-store-"));
const remove = (dir: string) => () => Promise.resolve(rmSync(dir, { recursive: true, force: true }));

storeContract("FileCatalogStore (memory)", () => Promise.resolve({ store: new FileCatalogStore(new MemoryFileSystem(), "/cache"), done: () => Promise.resolve() }));

storeContract("FileCatalogStore (disk)", () => {
  const dir = tempDir();
  return Promise.resolve({ store: new FileCatalogStore(detectFileSystem(), join(dir, "cache")), done: remove(dir) });
});

const binding = await sqliteBinding();
storeContract(`SqliteCatalogStore (${"driver" in binding ? binding.driver : "none"})`, async () => {
  const dir = tempDir();
  return { store: await openSqliteStore(join(dir, "catalog.sqlite")), done: remove(dir) };
}, "skip" in binding ? binding.skip : false);

test("FileCatalogStore keeps a record line written with raw non-ASCII text when it saves others", async () => {
  // Lines it writes itself are ASCII (escaped); one written otherwise must survive a save unchanged.
  const fs = new MemoryFileSystem();
  const state = { header: { id: "s1" }, rejected: false, data: { name: "ünïcode 日本" } };
  const raw = JSON.stringify(["/s/ü.jsonl", 10, 1, 10, 1, "h", "t", "s1", state]);
  const format = JSON.stringify({ catalog: "pi-session", format: 1, section: "listing", version: 1 });
  await fs.mkdir("/cache", { recursive: true });
  await fs.writeAtomic("/cache/listing-v1.jsonl", new TextEncoder().encode(`${format}\n${raw}\n`));
  const store = new FileCatalogStore(fs, "/cache");
  const listing = { name: "listing", version: 1 };
  await store.load(listing);
  const other = { path: "/s/b.jsonl", size: 5, mtimeMs: 2, end: 5, lines: 1, headHash: "h", tailHash: "t", headerId: null, state: { header: null, rejected: true, data: {} } };
  await store.save(listing, { put: [other], remove: [] });
  const loaded = await new FileCatalogStore(fs, "/cache").load(listing);
  assert.deepEqual(loaded.get("/s/ü.jsonl")?.state, state);
  assert.deepEqual(loaded.get("/s/b.jsonl"), other);
});

test("node:sqlite rows come as arrays natively (setReturnArrays) or from the row objects, in column order", () => {
  const rows = [{ path: "/a", size: 1, mtime: 2.5 }, { path: "/b", size: 3, mtime: 4 }];
  const calls: boolean[] = [];
  const native: NodeStatement = {
    run: () => ({ lastInsertRowid: 0, changes: 0 }),
    get: () => undefined,
    all: () => (calls.at(-1) ? rows.map((r) => Object.values(r)) : rows) as never,
    setReturnArrays: (on) => void calls.push(on),
  };
  const old: NodeStatement = { run: native.run, get: native.get, all: () => rows };
  const expected = [["/a", 1, 2.5], ["/b", 3, 4]];
  assert.deepEqual(arrayRows(native, []), expected);
  assert.deepEqual(calls, [true, false], "switched on for the call, then off again");
  assert.deepEqual(arrayRows(old, []), expected);
});

test("FileCatalogStore.clear() is not upset by a file another process removed first", async () => {
  const fs = new MemoryFileSystem();
  const store = new FileCatalogStore(fs, "/cache");
  const record = { path: "/s/a.jsonl", size: 5, mtimeMs: 2, end: 5, lines: 1, headHash: "h", tailHash: "t", headerId: null, state: { header: null, rejected: true, data: {} } };
  for (const name of ["listing", "usage"]) await store.save({ name, version: 1 }, { put: [record], remove: [] });
  // The other process clears between our listing of the folder and our removals.
  const racing: FileSystem = {
    read: (path, range) => fs.read(path, range),
    stat: (path) => fs.stat(path),
    list: async (dir) => {
      const entries = await fs.list(dir);
      for (const entry of entries) await fs.remove(`${dir}/${entry.name}`);
      return entries;
    },
    append: (path, data, options) => fs.append(path, data, options),
    writeAtomic: (path, data, options) => fs.writeAtomic(path, data, options),
    rename: (from, to) => fs.rename(from, to),
    remove: (path) => fs.remove(path),
    mkdir: (path, options) => fs.mkdir(path, options),
    link: (existing, newPath) => fs.link(existing, newPath),
    realPath: (path) => fs.realPath(path),
  };
  await new FileCatalogStore(racing, "/cache").clear();
  assert.deepEqual(await fs.list("/cache"), []);
});

test("FileCatalogStore saves by streaming the merge: stored lines byte for byte and in place, new ones last, long ones whole", async () => {
  const fs = new MemoryFileSystem();
  const listing = { name: "listing", version: 1 };
  const record = (path: string, text: string) => ({
    path, size: text.length, mtimeMs: 1, end: text.length, lines: 1, headHash: "h", tailHash: "t", headerId: null,
    state: { header: { id: path }, rejected: false, data: { text } },
  });
  // More than one write chunk (256 KiB) in all, and one line longer than a chunk by itself.
  const first = Array.from({ length: 300 }, (_, i) => record(`/s/${String(i).padStart(3, "0")}.jsonl`, "x".repeat(2000)));
  first[150] = record("/s/150.jsonl", "y".repeat(400_000));
  await new FileCatalogStore(fs, "/cache").save(listing, { put: first, remove: [] });
  const file = "/cache/listing-v1.jsonl";
  const before = new TextDecoder().decode(await readBytes(fs, file)).split("\n");
  assert.equal(before.length, 1 + 300 + 1, "the format line, a line per record, and the final newline");

  await new FileCatalogStore(fs, "/cache").save(listing, {
    put: [record("/s/new.jsonl", "n"), record("/s/010.jsonl", "changed")],
    remove: ["/s/020.jsonl", "/s/not-there.jsonl"],
  });
  const after = new TextDecoder().decode(await readBytes(fs, file)).split("\n");
  const expected = [...before.slice(0, -1)];
  expected[1 + 10] = after[1 + 10];
  expected.splice(1 + 20, 1);
  expected.push(after.at(-2)!, "");
  assert.deepEqual(after, expected, "only the changed line differs, the removed one is gone, the new one is last");
  assert.match(after[1 + 10], /"changed"/);
  assert.match(after.at(-2)!, /^\["\/s\/new\.jsonl"/);
  const loaded = await new FileCatalogStore(fs, "/cache").load(listing);
  assert.equal(loaded.size, 300);
  assert.deepEqual(loaded.get("/s/150.jsonl"), first[150]);
  assert.equal(loaded.get("/s/020.jsonl"), undefined);
  assert.deepEqual(loaded.get("/s/010.jsonl"), record("/s/010.jsonl", "changed"));
});

