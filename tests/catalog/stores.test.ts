/**
 * The store contract for every store this runtime has: the file store over memory and over
 * the disk, and SQLite through this runtime's binding (bun:sqlite under Bun, node:sqlite
 * under Deno and Node ≥ 22.5; skipped, saying why, on Node 20).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
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
