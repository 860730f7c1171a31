/**
 * `recent`: the newest session of this directory, as a path or JSON, and `null` when none.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { addSession, memoryFs, runCli, userEntry } from "./_harness.ts";

test("recent --json prints {schemaVersion, path} for the newest session", async () => {
  const fs = memoryFs();
  const path = await addSession(fs, "11111111-aaaa", [userEntry("u1", null, "hi")]);
  const run = await runCli(["recent", "--json"], { fs });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { schemaVersion: 1, path });
  assert.equal((await runCli(["recent"], { fs })).stdout, path + "\n");
});

test("recent --json with no session prints null and exits 1", async () => {
  const run = await runCli(["recent", "--json"], { fs: memoryFs() });
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "null\n");
  assert.match(run.stderr, /No session found for \/work\/proj/);
  const plain = await runCli(["recent"], { fs: memoryFs() });
  assert.equal(plain.stdout, "");
});
