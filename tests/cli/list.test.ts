/**
 * `list --limit`: how many sessions it prints, and the usage error for a count that is not one.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addSession, memoryFs, runCli, userEntry } from "./_harness.ts";

test("list --limit n prints the n newest; a limit that is not a whole number above 0 exits 2", async () => {
  const fs = memoryFs();
  await addSession(fs, "aaaa1111", [userEntry("u1", null, "first")]);
  await addSession(fs, "bbbb2222", [userEntry("u1", null, "second")]);
  const all = JSON.parse((await runCli(["list", "--json"], { fs })).stdout);
  assert.equal(all.length, 2);
  const one = await runCli(["list", "--json", "--limit", "1"], { fs });
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(JSON.parse(one.stdout), all.slice(0, 1));
  for (const bad of ["0", "-1", "1.5", "many"]) {
    const run = await runCli(["list", "--limit", bad], { fs });
    assert.equal(run.code, 2, bad);
    assert.match(run.stderr, new RegExp(`--limit must be a whole number above 0, not "${bad.replace(".", "\\.")}"`), bad);
  }
});
