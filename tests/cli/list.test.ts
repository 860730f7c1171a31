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

test("list --search takes pi's /resume syntax: re:REGEX, \"phrases\" and fuzzy words, as pick does", async () => {
  const fs = memoryFs();
  await addSession(fs, "aaaa1111", [userEntry("u1", null, "fix the zebra parser")]);
  await addSession(fs, "bbbb2222", [userEntry("u1", null, "the parser of zebra files")]);
  const ids = async (query: string) => {
    const run = await runCli(["list", "--json", "--search", query], { fs });
    return run.code === 0 ? JSON.parse(run.stdout).map((s: { id: string }) => s.id).sort() : run.code;
  };
  assert.deepEqual(await ids("re:zeb.a\\s+parser"), ["aaaa1111"]);
  assert.deepEqual(await ids('"zebra parser"'), ["aaaa1111"]);
  assert.deepEqual(await ids("zebra parser"), ["aaaa1111", "bbbb2222"]);
  const bad = await runCli(["list", "--search", "re:("], { fs });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^pi-session: Cannot search for "re:\(": /);
});

test("list finds nothing: exit 1 in every output mode, --json printing []", async () => {
  const fs = memoryFs();
  await addSession(fs, "aaaa1111", [userEntry("u1", null, "fix the parser")]);
  const table = await runCli(["list", "--search", "nothing-like-this"], { fs });
  assert.equal(table.code, 1);
  assert.equal(table.stdout, "");
  assert.match(table.stderr, /No sessions match "nothing-like-this" for \/work\/proj; try --all/);
  const json = await runCli(["list", "--json", "--search", "nothing-like-this"], { fs });
  assert.deepEqual([json.code, JSON.parse(json.stdout)], [1, []]);
  const ndjson = await runCli(["list", "--ndjson", "--named"], { fs });
  assert.deepEqual([ndjson.code, ndjson.stdout], [1, ""]);
  const found = await runCli(["list", "--json", "--search", "parser"], { fs });
  assert.equal(found.code, 0);
});

test("list --since keeps the sessions modified on or after a day, a time or a span back; a bad date exits 2", async () => {
  const fs = memoryFs();
  const on = (day: number, id: string) => {
    const at = new Date(Date.UTC(2025, 5, day, 10));
    return { type: "message", id, parentId: null, timestamp: at.toISOString(), message: { role: "user", content: `day ${day}`, timestamp: at.getTime() } };
  };
  await addSession(fs, "aaaa1111", [on(1, "u1")]);
  await addSession(fs, "bbbb2222", [on(3, "u1")]);
  await addSession(fs, "cccc3333", [on(5, "u1")]);
  const ids = async (...argv: string[]) => {
    const run = await runCli(["list", "--json", ...argv], { fs });
    return [run.code, JSON.parse(run.stdout).map((s: { id: string }) => s.id).sort()];
  };
  assert.deepEqual(await ids("--since", "2025-06-03", "--tz", "UTC"), [0, ["bbbb2222", "cccc3333"]]);
  assert.deepEqual(await ids("--since", "2025-06-03T10:00:00.001Z"), [0, ["cccc3333"]]);
  assert.deepEqual(await ids("--since", "2025-06", "--tz", "UTC", "--sort", "created"), [0, ["aaaa1111", "bbbb2222", "cccc3333"]]);
  // NOW is 2026-01-02: nothing in the last week.
  assert.deepEqual(await ids("--since", "7d"), [1, []]);
  const none = await runCli(["list", "--since", "7d"], { fs });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /No sessions modified since 7d for \/work\/proj; try --all/);
  const bad = await runCli(["list", "--since", "last tuesday"], { fs });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^pi-session: --since: /);
  const zone = await runCli(["list", "--since", "2025-06-03", "--tz", "Mars/Olympus"], { fs });
  assert.equal(zone.code, 2);
  assert.match(zone.stderr, /--tz: unknown time zone "Mars\/Olympus"/);
});
