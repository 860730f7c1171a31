/**
 * The server's full-text index, built in the background after the start: a search typed before it
 * is complete scans the files (its hits those of the CLI) rather than wait for it, and once it is
 * built every session is in it and searches answer from it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Catalog } from "../../src/catalog/catalog.ts";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import type { CatalogStore, SectionChanges, SectionKey } from "../../src/catalog/store.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "../cli/_harness.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { testServer } from "./_server.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-search-warmup-"));
after(() => rmSync(work, { recursive: true, force: true }));
const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;

async function sessions() {
  const fs = memoryFs();
  const paths: string[] = [];
  for (let i = 0; i < 12; i++) {
    const id = `0a1b2c3d-0000-4000-8000-0000000000${String(i).padStart(2, "0")}`;
    const text = i % 3 === 0 ? `write the parser tests, part ${i}` : `tidy the docs, part ${i}`;
    paths.push(await addSession(fs, id, [userEntry("u1", null, text), assistantEntry("a1", "u1", `Done with part ${i}`)], { cwd: `/home/u/p${i % 4}` }));
  }
  return { fs, paths };
}

/** A store whose saves of search documents wait until `open()`: an index build that has not ended. */
function heldStore(store: CatalogStore): { store: CatalogStore; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const save = async (section: SectionKey, changes: SectionChanges) => {
    if (section.name === docsDigest.name) await gate;
    return store.save(section, changes);
  };
  const held = new Proxy(store, {
    get(target, key) {
      if (key === "save") return save;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store: held, open };
}

describe("serve: the full-text index built in the background", { skip: noSqlite }, () => {
  it("a search before the index is built scans the files and answers at once, with the CLI's hits", { timeout: 120_000 }, async () => {
    const { fs } = await sessions();
    const store = await openSqliteStore(join(work, "held.sqlite"));
    const held = heldStore(store);
    const server = await testServer({ fs, catalog: new Catalog(fs, { store: held.store }), redact: false });
    try {
      // The build is under way and cannot end while the gate is shut; the search does not wait for it.
      const hits = await server.json("/api/search?q=parser");
      assert.equal(server.state.searchWarmup.ready, false);
      const cli = await runCli(["search", "parser", "--all", "--json"], { fs });
      assert.deepEqual(hits, JSON.parse(cli.stdout));
      assert.equal((hits as unknown[]).length, 4);
    } finally {
      held.open();
      await server.close();
      store.close();
    }
  });

  it("indexes every session after the start, then searches answer from the index", async () => {
    const { fs, paths } = await sessions();
    const store = await openSqliteStore(join(work, "built.sqlite"));
    const server = await testServer({ fs, catalog: new Catalog(fs, { store }), redact: false });
    try {
      assert.equal(await server.state.searchWarmup.done, true);
      assert.equal(server.state.searchWarmup.ready, true);
      assert.deepEqual([...(await store.loadStamps!(docsDigest)).keys()].sort(), [...paths].sort());
      const hits = await server.json("/api/search?q=parser");
      const cli = await runCli(["search", "parser", "--all", "--json"], { fs });
      assert.deepEqual(hits, JSON.parse(cli.stdout));
    } finally {
      await server.close();
      store.close();
    }
  });

  it("has nothing to build without a full-text index (no catalog store): searches scan", async () => {
    const { fs } = await sessions();
    const server = await testServer({ fs, catalog: new Catalog(fs), redact: false });
    try {
      assert.equal(await server.state.searchWarmup.done, false);
      assert.equal(((await server.json("/api/search?q=parser")) as unknown[]).length, 4);
    } finally {
      await server.close();
    }
  });
});
