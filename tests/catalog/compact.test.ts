/**
 * A catalog that saved the full text of many files (a cold `search` or `index`) compacts its
 * store when it closes, and every answer stays the same; a build of the listing alone, or of
 * the full text of a few files, is not compacted. Skipped where the runtime has no SQLite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sessionText, sqliteBinding, utf8 } from "./_helpers.ts";
import { storeAnswers } from "./_store-answers.ts";

const binding = await sqliteBinding();
const skip = "skip" in binding ? binding.skip : false;
const KINDS = [listingDigest, usageDigest, docsDigest];

const answers = (store: SqliteCatalogStore, dir: string) => storeAnswers(store, dir, KINDS);

test(`a catalog that saved the full text of many files compacts its store when closed, with the same answers (${"driver" in binding ? binding.driver : "no SQLite"})`, { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-compact-"));
  try {
    const fs = detectFileSystem();
    const files = Array.from({ length: 6 }, (_, i) => join(dir, `s${i}.jsonl`));
    for (const [i, file] of files.entries()) await fs.writeAtomic(file, utf8(sessionText(`s${i}`, 3 + i)));
    const path = join(dir, "catalog.sqlite");
    /** Refreshes `kinds` of `some` files through a catalog that compacts from `after` full-text records; the number of compactions. */
    const build = async (kinds: typeof KINDS, some: string[], after: number) => {
      const store = await openSqliteStore(path);
      let compactions = 0;
      const compact = store.compact.bind(store);
      store.compact = () => (compactions++, compact());
      const catalog = new Catalog(fs, { store, compactAfter: after });
      await catalog.refresh(kinds, some, { listedDirs: [dir] });
      catalog.close();
      return compactions;
    };
    assert.equal(await build([listingDigest, usageDigest], files, 1), 0, "no full text saved");
    assert.equal(await build(KINDS, files.slice(0, 2), 3), 0, "the full text of 2 files");
    // A removal leaves free pages for the compaction to give back.
    await fs.remove(files[0]);
    files.shift();
    for (const file of files.slice(0, 3)) await fs.append(file, utf8(sessionText("more", 2, { from: 40 })));
    assert.equal(await build(KINDS, files, 3), 1, "the full text of 5 files: compacted");
    // Compacted ahead of closing (index --stats): not again when closed.
    await fs.append(files[4], utf8(sessionText("more", 1, { from: 50 })));
    {
      const store = await openSqliteStore(path);
      let compactions = 0;
      const compact = store.compact.bind(store);
      store.compact = () => (compactions++, compact());
      const catalog = new Catalog(fs, { store, compactAfter: 1 });
      await catalog.refresh(KINDS, files, { listedDirs: [dir] });
      assert.equal(catalog.compactIfDue(), true);
      assert.equal(catalog.compactIfDue(), false);
      catalog.close();
      assert.equal(compactions, 1);
    }
    const store = await openSqliteStore(path);
    try {
      const compacted = await answers(store, dir);
      const raw = "Bun" in globalThis ? await openBunSqlite(path) : await openNodeSqlite(path);
      assert.equal(Number(raw.prepare("PRAGMA freelist_count").get()?.freelist_count), 0);
      raw.close();
      // Built again without compaction, from nothing: the same answers.
      const fresh = join(dir, "fresh.sqlite");
      const other = await openSqliteStore(fresh);
      const catalog = new Catalog(fs, { store: other, compactAfter: Infinity });
      await catalog.refresh(KINDS, files, { listedDirs: [dir] });
      assert.deepEqual(compacted, await answers(other, dir));
      catalog.close();
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
