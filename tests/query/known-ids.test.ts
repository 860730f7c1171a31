/**
 * `shortSessionIds`: the short ids `search` and `files` print are unique among every project's
 * sessions, whether the catalog has listed them already or not, with the catalog off, and
 * through the SQLite catalog's index of header ids (or without it, where it fails).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Catalog } from "../../src/catalog/catalog.ts";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { createQueryEnv } from "../../src/query/env.ts";
import { shortSessionIds } from "../../src/query/known-ids.ts";
import { collidingIds, CountingFileSystem, sqliteBinding } from "../catalog/_helpers.ts";
import { listSessions } from "../../src/query/list.ts";
import { uniquePrefixesAmong } from "../../src/render/unique-prefix.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/catalog/sqlite/open-sqlite.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { addSession, AGENT_DIR, CWD, HOME, memoryFs, NOW, userEntry } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

const CWDS = ["/work/proj", "/work/other", "/srv/app"];

const binding = await sqliteBinding();
const noSqlite = "skip" in binding ? binding.skip : false;

async function corpus(ids: readonly string[]) {
  const fs = memoryFs();
  for (const [i, id] of ids.entries()) await addSession(fs, id, [], { cwd: CWDS[i % CWDS.length] });
  return fs;
}

for (const catalog of ["on", "off"]) {
  test(`shortSessionIds() gives each shown id its shortest prefix unique among every project's sessions (catalog ${catalog})`, async () => {
    const ids = collidingIds(120, 7);
    const fs = await corpus(ids);
    const { env } = testEnv(fs, { envVars: catalog === "off" ? { PI_SESSION_CATALOG: "off" } : {} });
    // With the catalog: its stored header ids, of the listing made first.
    if (catalog === "on") await listSessions(env, { all: true });
    const shown = ids.filter((_, i) => i % 7 === 3);
    const short = await env.withCatalog((c) => shortSessionIds(env, c, shown));
    assert.deepEqual(short, uniquePrefixesAmong(shown, ids));
  });
}

test("shortSessionIds() counts a session the catalog has not listed yet, and a copy of a shown one not at all", async () => {
  const fs = await corpus(["0190abcd-0000", "0190abce-0000"]);
  const { env } = testEnv(fs);
  // The catalog lists every project; then a session appears that shares more of a shown id.
  await listSessions(env, { all: true });
  await addSession(fs, "0190abcd-0001", [], { cwd: "/srv/app" });
  // A copy of a shown session (a clone keeps the id) in another project makes it no longer.
  await addSession(fs, "0190abce-0000", [], { cwd: "/work/other" });
  const short = await env.withCatalog((c) => shortSessionIds(env, c, ["0190abcd-0000", "0190abce-0000"]));
  assert.deepEqual(short, new Map([["0190abcd-0000", "0190abcd-0000"], ["0190abce-0000", "0190abce"]]));
});

const ONE = "0a1b2c3d-aaaa-4000-8000-000000000001";
const TWO = "0a1b2c3d-aaab-4000-8000-000000000002";

test("shortSessionIds() without a kept catalog reads the headers only, and shortens as through the catalog", async () => {
  const disk = memoryFs();
  // A long session elsewhere whose id shares 13 characters with the one shown.
  const long = await addSession(disk, TWO, [userEntry("u1", null, "x".repeat(3 * 1024 * 1024))], { cwd: "/home/u/two" });
  await addSession(disk, ONE, [userEntry("u1", null, "hello")]);
  const fs = new CountingFileSystem(disk);
  const env = createQueryEnv({ fs, storage: { env: () => undefined, home: HOME, processCwd: CWD } });
  const expected = new Map([[ONE, "0a1b2c3d-aaaa"]]);
  assert.deepEqual(await shortSessionIds(env, new Catalog(fs), [ONE]), expected);
  assert.ok((fs.byPath.get(long) ?? 0) < 2 * 1024 * 1024, `read ${fs.byPath.get(long)} bytes of the long session`);
  assert.deepEqual(await shortSessionIds(env, new Catalog(fs, { store: new FileCatalogStore(fs, "/cache") }), [ONE]), expected);
});

test("shortSessionIds() through the SQLite catalog's index of ids shortens as every header would, and without it when the index fails", { skip: noSqlite }, async (t) => {
  // Beside the colliding ids, two shown ids that share exactly 8 and 9 characters with one other each.
  const ids = [...collidingIds(90, 3), "0190zzzzAAAA", "0190zzzzBBBB", "0190yyyyyAAA", "0190yyyyyBBB"];
  const fs = await corpus(ids);
  const work = mkdtempSync(join(tmpdir(), "pi-session-known-ids-"));
  const store = await openSqliteStore(join(work, "catalog.sqlite"));
  t.after(() => {
    store.close();
    rmSync(work, { recursive: true, force: true });
  });
  // Listed (a full check) a minute after the sessions were written: the folders are taken on trust after.
  const now = NOW.getTime() + 60_000;
  const sessions = `${AGENT_DIR}/sessions`;
  const lister = new Catalog(fs, { store, check: "full", now: () => now });
  assert.ok(await lister.refreshRows(listingDigest, await lister.listFiles(sessions, true), sessions));
  const { env } = testEnv(fs);
  const shown = [...ids.filter((_, i) => i % 5 === 1 && i < 90), "0190zzzzAAAA", "0190yyyyyAAA"];
  const expected = uniquePrefixesAmong(shown, ids);
  assert.equal(expected.get("0190zzzzAAAA"), "0190zzzzA");
  assert.equal(expected.get("0190yyyyyAAA"), "0190yyyyyA");
  let asked = 0;
  const counted = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (key === "headerIdsFrom") return (...args: Parameters<typeof target.headerIdsFrom>) => (asked++, target.headerIdsFrom(...args));
      // All at once: each id asked counts.
      if (key === "nearestHeaderIds") return (...args: Parameters<typeof target.nearestHeaderIds>) => ((asked += args[2].length), target.nearestHeaderIds(...args));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  assert.deepEqual(await shortSessionIds(env, new Catalog(fs, { store: counted, now: () => now + 1000 }), shown), expected);
  assert.ok(asked >= shown.length, `the index was asked ${asked} times`);
  const failing = new Proxy(store, {
    get(target, key) {
      if (key === "headerIdsFrom" || key === "nearestHeaderIds") {
        return () => {
          throw new Error("database disk image is malformed");
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  assert.deepEqual(await shortSessionIds(env, new Catalog(fs, { store: failing, now: () => now + 1000 }), shown), expected);
});
