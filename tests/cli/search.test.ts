/**
 * `search`: hits with session, entry id, role, time and a marked snippet; JSON; filters; and
 * the errors a user can make. (The scan and the index are compared in tests/catalog.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { addSession, memoryFs, runCli, userEntry } from "./_harness.ts";
import { usageSessions } from "./_usage-sessions.ts";

async function setup() {
  const fs = memoryFs();
  await usageSessions(fs);
  return (...argv: string[]) => runCli(["search", ...argv], { fs });
}

test("search prints hits grouped by session, newest first, matches marked", async () => {
  const search = await setup();
  const run = await search("parser");
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split("\n");
  assert.match(lines[0], /^11111111 {2}Parser fix {2}~\/\.pi\/agent\/sessions\/--work-proj--\/2025-06-01T10-00-00-000Z_11111111-aaaa\.jsonl$/);
  assert.match(lines[1], /^ {2}2025-06-02T10:00:01\.000Z {2}n1 {2}name {10}\*\*Parser\*\* fix$/);
  assert.match(run.stdout, / {2}2025-06-01T10:00:01\.000Z {2}a1 {2}assistant {5}Found the \*\*parser\*\* bug/);
  assert.match(run.stdout, /a1 {2}assistant .*read \{"path":"src\/\*\*parser\*\*\.ts"\}/);
});

test("search --json gives one object per hit", async () => {
  const search = await setup();
  const hits = JSON.parse((await search("日本語", "--json")).stdout);
  assert.deepEqual(hits.map((h: Record<string, unknown>) => [h.sessionId, h.entryId, h.role, h.part, h.name, h.cwd]), [["22222222-bbbb", "a3", "assistant", "text", null, "/work/proj"]]);
  assert.equal(hits[0].snippet.slice(hits[0].marks[0][0], hits[0].marks[0][1]), "日本語");
  assert.deepEqual(Object.keys(hits[0]), ["path", "sessionId", "cwd", "name", "entryId", "role", "part", "timestamp", "line", "snippet", "marks"]);
});

test("search --role, --since, --limit and --all narrow or widen the hits", async () => {
  const search = await setup();
  const ids = async (...argv: string[]) => JSON.parse((await search(...argv, "--json")).stdout).map((h: { entryId: string }) => h.entryId);
  assert.deepEqual(await ids("parser", "--role", "user"), ["u1", "u1"]);
  assert.deepEqual(await ids("parser", "--role", "name,user", "--since", "2025-06-02"), ["n1"]);
  assert.deepEqual(await ids("parser", "--limit", "1"), ["n1"]);
  assert.deepEqual(await ids("project"), []);
  assert.deepEqual(await ids("project", "--all"), ["o1"]);
  const limited = await search("parser", "--limit", "1");
  assert.match(limited.stderr, /Showing the newest 1 hits; pass --limit to see more/);
});

test("search exits 1 without hits and 2 for a bad regex, role, limit or date", async () => {
  const search = await setup();
  const none = await search("zebra");
  assert.equal(none.code, 1);
  assert.match(none.stderr, /No hits for "zebra"; try --all/);
  for (const [argv, pattern] of [
    [["(", "--regex"], /Cannot search for "\(": /],
    [["x", "--role", "robot"], /--role: unknown role "robot"/],
    [["x", "--limit", "0"], /--limit must be a whole number above 0/],
    [["x", "--since", "2025-13-45"], /--since: Cannot read the date "2025-13-45"/],
  ] as const) {
    const run = await search(...argv);
    assert.equal(run.code, 2, argv.join(" "));
    assert.match(run.stderr, pattern);
  }
});

test("search npm test (unquoted) marks both words: the snippet shows where they occur together", async () => {
  const fs = memoryFs();
  const filler = "and so on ".repeat(30);
  await addSession(fs, "aaaa1111", [userEntry("u1", null, `The test suite is slow, ${filler}so run npm test with --watch.`)]);
  const run = await runCli(["search", "npm", "test"], { fs });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /run \*\*npm\*\* \*\*test\*\* with --watch\./);
  const phrase = await runCli(["search", '"npm test"'], { fs });
  assert.match(phrase.stdout, /run \*\*npm test\*\* with --watch\./);
});

const binding = await sqliteBinding();
test(
  "search on a terminal with a cold full-text index scans the files at once (same hits), says so, and builds no index; in a pipe it builds the index",
  { skip: "skip" in binding ? binding.skip : undefined },
  async () => {
    const root = mkdtempSync(join(tmpdir(), "pi-session-cold-search-"));
    try {
      const fs = detectFileSystem();
      const home = join(root, "home");
      const env = { XDG_CACHE_HOME: join(root, "cache") };
      const where = { fs, home, processCwd: join(home, "work"), env };
      const path = await addSession(fs, "c01d0001", [userEntry("u1", null, "the flaky parser again")], { dir: join(home, ".pi/agent/sessions/--work--") });
      const tty = { ...where, env: { ...env, NO_COLOR: "1" }, stdoutIsTTY: true, stderrIsTTY: true };
      const terminal = await runCli(["search", "flaky", "--all"], tty);
      assert.equal(terminal.code, 0, terminal.stderr);
      assert.match(terminal.stderr, /full-text index is not built yet\. `pi-session index` builds it/);
      const piped = await runCli(["search", "flaky", "--all"], where);
      assert.equal(piped.code, 0, piped.stderr);
      assert.equal(piped.stdout, terminal.stdout);
      assert.doesNotMatch(piped.stderr, /not built yet/);
      const again = await runCli(["search", "flaky", "--all"], tty);
      assert.doesNotMatch(again.stderr, /not built yet/, "once built (by the piped search), the index answers");
      assert.ok(again.stdout.includes(path.slice(home.length + 1)));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
);
