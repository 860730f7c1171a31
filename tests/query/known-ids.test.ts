import assert from "node:assert/strict";
import { test } from "node:test";
import { Catalog } from "../../src/catalog/catalog.ts";
import { FileCatalogStore } from "../../src/catalog/file-store.ts";
import { createQueryEnv } from "../../src/query/env.ts";
import { shortSessionIds } from "../../src/query/known-ids.ts";
import { CountingFileSystem } from "../catalog/_helpers.ts";
import { addSession, CWD, HOME, memoryFs, userEntry } from "../cli/_harness.ts";

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
