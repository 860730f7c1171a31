/**
 * A `stats` report made from a SQLite catalog is kept there (sqlite-answers.ts) and read back
 * while no usage record changes: the same report byte for byte, never one made from records
 * that changed since (an append read by the check, a record rewritten by another program, a
 * catalog whose change counting was missing for a while).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { sqliteCatalogPath } from "../../src/catalog/open-catalog.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { createQueryEnv, type QueryEnv } from "../../src/query/env.ts";
import { type StatsOptions, usageStats } from "../../src/query/stats.ts";
import { eachUsageSession } from "../../src/query/usage-stream.ts";
import { cataloguedSessions } from "../../src/query/scope.ts";
import { statsAnswerKey } from "../../src/query/stats-answer.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";
import { uniquePrefixesAmong } from "../../src/render/unique-prefix.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-stats-answer-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const cacheHome = join(work, "cache");
await generateSessions({ dir: agentDir, count: 40, seed: 20261202 });
const binding = await sqliteBinding();
const withSqlite = "skip" in binding ? { skip: binding.skip } : {};

function envFor(vars: Record<string, string> = {}): QueryEnv {
  const all: Record<string, string> = { XDG_CACHE_HOME: cacheHome, ...vars };
  return createQueryEnv({ fs: detectFileSystem(), storage: { env: (name) => all[name], home: work, processCwd: work }, agentDir });
}

async function openDb() {
  const path = sqliteCatalogPath(join(cacheHome, "pi-session"));
  return (globalThis as { Bun?: unknown }).Bun !== undefined ? await openBunSqlite(path) : await openNodeSqlite(path);
}

/**
 * Where the sessions came from in a walk asking for a kept answer, and what it found: with
 * `report`, the answer `usageStats` keeps for `options` (and nothing kept), else one of its own
 * (keeping "made").
 */
async function walk(env: QueryEnv, options: StatsOptions & { tz: string }, report = false) {
  const key = await statsAnswerKey(env, { all: true, by: options.by ?? "day", tz: options.tz, since: undefined, until: undefined, breakdown: false, explain: undefined });
  let found: string | undefined;
  const from = await eachUsageSession(env, () => () => {}, { key: report ? key! : `${key} walk`, found: (body) => ((found = body), true), made: () => (report ? undefined : "made") });
  return { from, found };
}

const report = async (env: QueryEnv, options: StatsOptions) => JSON.stringify((await usageStats(env, options)).value);
/** The report made by walking every session, whatever the catalog keeps. */
const walked = (options: StatsOptions) => report(envFor(), { ...options, explain: "no such row" });

test("a report is kept, read back while no usage record changed, and made again after one did", withSqlite, async () => {
  const env = envFor();
  const options: StatsOptions = { all: true, tz: "UTC", breakdown: true };
  const first = await report(env, options);
  assert.equal(first, await report(env, options), "read back the same");
  assert.equal(first, await walked(options));
  // Kept under its own key: what the walk made is there, and is what a second walk finds.
  assert.deepEqual(await walk(env, { tz: "UTC", by: "week" }), { from: "store", found: undefined });
  assert.deepEqual(await walk(env, { tz: "UTC", by: "week" }), { from: "kept", found: "made" });
  // Another zone, another report.
  assert.deepEqual((await walk(env, { tz: "Asia/Tokyo", by: "week" })).from, "store");

  // An append, seen by the check: the next report counts it.
  const dir = join(agentDir, "sessions", readdirSync(join(agentDir, "sessions")).sort()[0]);
  const file = join(dir, readdirSync(dir).sort()[0]);
  const last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1)!);
  const usage = { input: 1000, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 1007, cost: { input: 1, output: 0.5, cacheRead: 0, cacheWrite: 0, total: 1.5 } };
  const paid = { type: "message", id: "a11ce5ed", parentId: last.id ?? null, timestamp: "2025-06-06T10:00:00.000Z", message: { role: "assistant", content: [], provider: "p", model: "m", usage, stopReason: "stop", timestamp: 1 } };
  appendFileSync(file, JSON.stringify(paid) + "\n");
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const appended = await report(envFor({ PI_SESSION_CHECK: "full" }), options);
  assert.notEqual(appended, first);
  assert.equal(JSON.parse(appended).totals.input, JSON.parse(first).totals.input + 1000);
  assert.equal(await report(env, options), appended);
  assert.deepEqual(await walk(env, { tz: "UTC", by: "week" }), { from: "store", found: undefined }, "the week's answer was made before the append");
});

test("a usage record rewritten by another program, or changed while its changes went uncounted, is never answered for from before", withSqlite, async () => {
  const env = envFor();
  const options: StatsOptions = { all: true, tz: "UTC", by: "model" };
  const before = await report(env, options);
  assert.deepEqual((await walk(env, { tz: "UTC", by: "model" }, true)).from, "kept", "kept by the report");
  // Another program renames the cost keys of one stored state (its header and rows stay sound).
  let db = await openDb();
  const [row] = db.prepare("SELECT rowid AS id, coalesce(final, state) AS state FROM records WHERE section = 'usage' AND state LIKE '%\"rows\":%' AND state NOT LIKE '%\"rows\":0%' LIMIT 1").all();
  const state = JSON.parse(row.state as string);
  state.data.keys = state.data.keys.map((key: string) => `${key}-renamed`);
  db.prepare("UPDATE records SET state = ?, final = NULL WHERE rowid = ?").run(JSON.stringify(state), row.id as number);
  db.close();
  assert.deepEqual((await walk(env, { tz: "UTC", by: "model" }, true)).from, "store");
  const rewritten = await report(env, options);
  assert.notEqual(rewritten, before);
  assert.match(rewritten, /-renamed/);
  assert.equal(rewritten, await walked(options));
  // Changes made while the counting triggers were gone (a program that made `records` anew):
  // when the triggers are made again, every kept answer goes.
  assert.deepEqual((await walk(env, { tz: "UTC", by: "model" }, true)).from, "kept");
  db = await openDb();
  for (const trigger of ["answers_counted", "answers_count_update", "answers_count_delete"]) db.exec(`DROP TRIGGER ${trigger}`);
  // As that program left it: without the mark of a file this build set up.
  db.exec("PRAGMA application_id = 0");
  db.prepare("UPDATE records SET state = ? WHERE rowid = ?").run(JSON.stringify(state).replaceAll("-renamed", "-again"), row.id as number);
  db.close();
  assert.deepEqual((await walk(env, { tz: "UTC", by: "model" }, true)).from, "store");
  assert.match(await report(env, options), /-again/);
  // A kept answer that does not read is made again.
  db = await openDb();
  db.exec("UPDATE answers SET body = '{\"rows\": 1'");
  db.close();
  assert.equal(await report(env, options), await walked(options));
});

test("a report by session is kept like the others, and its rows are labelled from the listing as from every session held", withSqlite, async () => {
  const env = envFor();
  const options: StatsOptions = { all: true, tz: "UTC", by: "session", labels: true };
  const first = await usageStats(env, options);
  assert.ok(first.value.rows.length > 10);
  assert.equal(JSON.stringify(first.value), await walked({ ...options, labels: false }));
  assert.deepEqual((await walk(env, { tz: "UTC", by: "session" }, true)).from, "kept", "kept by the report");
  const again = await usageStats(env, options);
  assert.deepEqual(again, first, "read back, with the same labels");
  // The labels: what the listing of every session says of each row's session, and the short ids
  // among every id known (found from the ids nearest each, as from every id).
  const listed = await cataloguedSessions(env, true, { knownIds: true });
  const byId = new Map(listed.sessions.map((s) => [s.id, s]));
  const keys = first.value.rows.map((row) => row.key);
  assert.deepEqual(first.labels!.shortIds, uniquePrefixesAmong(keys, listed.knownIds));
  assert.equal(first.labels!.sessions.length, first.value.rows.length);
  for (const label of first.labels!.sessions) {
    const session = byId.get(label.id)!;
    assert.deepEqual(label, { id: session.id, name: session.name, cwd: session.cwd });
  }
  assert.ok(first.labels!.sessions.some((s) => s.name !== undefined), "some sessions are named");
  // Without `labels` (`--json`, serve, mcp), none are read.
  assert.equal((await usageStats(env, { ...options, labels: false })).labels, undefined);
  // Its walk keeps no base: the base a report by day keeps (the one a section has) stays.
  const day: StatsOptions = { all: true, tz: "UTC", by: "day" };
  await usageStats(env, { ...day, since: "2000-01-01" });
  const bases = async () => {
    const db = await openDb();
    try {
      return db.prepare("SELECT key FROM answer_bases").all().map((row) => row.key);
    } finally {
      db.close();
    }
  };
  const before = await bases();
  assert.equal(before.length, 1);
  assert.match(String(before[0]), /"by":"day"/);
  await usageStats(env, { ...options, since: "2000-01-01" });
  assert.deepEqual(await bases(), before, "a report by session made by a walk left the base alone");
});
