/**
 * The hours `blocks` is made from are kept in a SQLite catalog (sqlite-answers.ts) and read back
 * while no usage record changes: the same blocks as a walk over every session, at any time they
 * are shown, for every project or one, and never hours made from records that changed since.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { sqliteCatalogPath } from "../../src/catalog/open-catalog.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { type BlocksOptions, usageBlockReport } from "../../src/query/blocks.ts";
import { createQueryEnv, type QueryEnv } from "../../src/query/env.ts";
import { openRawSqlite, sqliteBinding } from "../catalog/_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-blocks-answer-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const cacheHome = join(work, "cache");
await generateSessions({ dir: agentDir, count: 40, seed: 20261204 });
const binding = await sqliteBinding();
const withSqlite = "skip" in binding ? { skip: binding.skip } : {};

/** An env whose clock says `now`, in `cwd` (default: the work folder, which has no sessions). */
function envFor(now: Date, vars: Record<string, string> = {}, cwd?: string): QueryEnv {
  const all: Record<string, string> = { XDG_CACHE_HOME: cacheHome, TZ: "UTC", ...vars };
  return createQueryEnv({ fs: detectFileSystem(), storage: { env: (name) => all[name], home: work, processCwd: work }, agentDir, cwd, now: () => now });
}

/** The blocks through the catalog, and as a walk over every session with no catalog. */
async function both(now: Date, options: BlocksOptions, cwd?: string): Promise<[string, string]> {
  const kept = JSON.stringify((await usageBlockReport(envFor(now, {}, cwd), options)).value);
  const walked = JSON.stringify((await usageBlockReport(envFor(now, { PI_SESSION_CATALOG: "off" }, cwd), options)).value);
  return [kept, walked];
}

/** The kept hours' rows, by key. */
async function keptHours(): Promise<Map<string, string>> {
  const db = await openRawSqlite(sqliteCatalogPath(join(cacheHome, "pi-session")));
  try {
    return new Map(db.prepare("SELECT key, body FROM answers WHERE key LIKE '[\"blocks\"%'").values().map(([key, body]) => [String(key), String(body)]));
  } finally {
    db.close();
  }
}

test("the hours of blocks are kept, read back at any time while no usage record changed, and made again after one did", withSqlite, async () => {
  const sessions = readdirSync(join(agentDir, "sessions"), { recursive: true }).map(String).filter((name) => name.endsWith(".jsonl")).sort();
  const header = (name: string) => JSON.parse(readFileSync(join(agentDir, "sessions", name), "utf8").split("\n")[0]);
  const cwd = header(sessions[0]).cwd as string;
  const cases: [string, BlocksOptions, string?][] = [["every project", { all: true }], ["one project", {}, cwd], ["since a day", { all: true, since: "2025-06-02", tz: "UTC" }]];
  // One time past the sessions' last block, one inside a block of theirs (the first session's start and an hour).
  const times = [new Date("2026-12-04T12:00:00Z"), new Date(Date.parse(header(sessions[0]).timestamp) + 3600e3)];
  for (const [what, options, inCwd] of cases) {
    for (const now of times) {
      const [kept, walked] = await both(now, options, inCwd);
      assert.equal(kept, walked, `${what} at ${now.toISOString()}`);
    }
  }
  assert.ok(JSON.parse((await both(times[1], { all: true }))[0]).blocks.some((block: { active: boolean }) => block.active), "a block is open at the second time");
  const kept = await keptHours();
  assert.equal(kept.size, cases.length, "one kept answer per scope and bound, whatever the time shown");
  // Read back, not made again: hours put in their place are what the next run shows.
  const everyKey = [...kept.keys()].find((key) => key.includes('"all":true') && key.includes('"since":null'))!;
  const db = await openRawSqlite(sqliteCatalogPath(join(cacheHome, "pi-session")));
  try {
    db.prepare("UPDATE answers SET body = '[]' WHERE key = ?").run(everyKey);
  } finally {
    db.close();
  }
  assert.deepEqual((await usageBlockReport(envFor(times[0]), { all: true })).value.blocks, []);
  // A session appended to: the usage records change, and the hours are made again.
  const file = join(agentDir, "sessions", sessions[1]);
  const paid = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line)).findLast((entry) => entry.message?.usage);
  appendFileSync(file, JSON.stringify({ ...paid, id: "ffff0001", parentId: paid.id }) + "\n");
  for (const now of times) {
    const [again, walked] = await both(now, { all: true });
    assert.equal(again, walked, `after an append, at ${now.toISOString()}`);
    assert.notEqual(JSON.parse(again).blocks.length, 0);
  }
});
