/**
 * `stats` reads every session's usage from a SQLite catalog a slice at a time, in attribution
 * order (usage-stream.ts), rather than through a refresh that holds every record: the same
 * sessions in the same order with the same rows, and the same report byte for byte, on a corpus
 * with forks, clones (pi's own), chained and cyclic parents, a cross-project clone, entries
 * repeated in one file, v1 files without ids, usage entries, tool results and compactions with
 * usage, several models and days. Where the runtime has no SQLite (Node 20) the file catalog
 * answers through the refresh, and the reports are compared all the same.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { openBunSqlite } from "../../src/catalog/sqlite/bun-sqlite.ts";
import { openNodeSqlite } from "../../src/catalog/sqlite/node-sqlite.ts";
import { sqliteCatalogPath } from "../../src/catalog/open-catalog.ts";
import { aggregateStats } from "../../src/core/stats/aggregate-stats.ts";
import { attributionOrder, type UsageSession } from "../../src/core/stats/attribution.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { dateOption, timeZoneOption } from "../../src/query/date-options.ts";
import { createQueryEnv, type QueryEnv } from "../../src/query/env.ts";
import { type StatsOptions, usageStats } from "../../src/query/stats.ts";
import { usageScope, usageSessions } from "../../src/query/usage-sessions.ts";
import { eachUsageSession } from "../../src/query/usage-stream.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-usage-stream-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const cacheHome = join(work, "cache");
await generateSessions({ dir: agentDir, count: 140, seed: 20261201 });
const binding = await sqliteBinding();
const withSqlite = "skip" in binding ? { skip: binding.skip } : {};

const sessionsDir = join(agentDir, "sessions");
const projects = readdirSync(sessionsDir).sort();
const [firstProject, secondProject] = projects.map((name) => join(sessionsDir, name));
/** The cwd of a project folder, from one of the generated sessions in it. */
const cwdOf = (dir: string) => JSON.parse(readFileSync(join(dir, readdirSync(dir).sort()[0]), "utf8").split("\n")[0]).cwd as string;
const [firstCwd, secondCwd] = [cwdOf(firstProject), cwdOf(secondProject)];

function usage(n: number, cost: number) {
  return { input: n, output: 2, cacheRead: 3, cacheWrite: 1, totalTokens: n + 6, cost: { input: cost, output: 0.0001, cacheRead: 0, cacheWrite: 0, total: cost + 0.0001 } };
}
function paid(id: string, ts: string, n: number, model = "hand-model"): object {
  return { type: "message", id, parentId: null, timestamp: ts, message: { role: "assistant", content: [], provider: "hand", model, usage: usage(n, n / 1e4), stopReason: "stop", timestamp: Date.parse(ts) } };
}
function session(dir: string, name: string, head: Record<string, unknown>, entries: object[]): string {
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, [{ type: "session", version: 3, cwd: dir === firstProject ? firstCwd : secondCwd, ...head }, ...entries].map((e) => JSON.stringify(e) + "\n").join(""));
  return path;
}

// A chain (root ← middle ← leaf, each copying its parent's entries) whose leaf is the oldest by header.
const a1 = paid("c0ffee01", "2025-06-01T08:00:00.000Z", 11);
const a2 = paid("c0ffee02", "2025-06-02T09:00:00.000Z", 12, "other-model");
const a3 = paid("c0ffee03", "2025-06-03T23:30:00.000Z", 13);
const root = session(firstProject, "hand-root", { id: "hand-root", timestamp: "2025-06-01T07:00:00.000Z" }, [a1]);
const middle = session(firstProject, "hand-middle", { id: "hand-middle", timestamp: "2025-06-02T07:00:00.000Z", parentSession: root }, [a1, a2]);
session(firstProject, "hand-leaf", { id: "hand-leaf", timestamp: "2025-05-01T07:00:00.000Z", parentSession: middle }, [a1, a2, a3, a3]);
// Parents in a cycle, a clone into another project, and files that are not sessions.
const cycleA = join(secondProject, "hand-cycle-a.jsonl");
const cycleB = session(secondProject, "hand-cycle-b", { id: "hand-cycle-b", timestamp: "2025-06-04T00:00:00.000Z", parentSession: cycleA }, [paid("c0ffee04", "2025-06-04T01:00:00.000Z", 14)]);
session(secondProject, "hand-cycle-a", { id: "hand-cycle-a", timestamp: "2025-06-04T00:00:00.000Z", parentSession: cycleB }, [paid("c0ffee04", "2025-06-04T01:00:00.000Z", 14), paid("c0ffee05", "2025-06-04T02:00:00.000Z", 15)]);
session(secondProject, "hand-clone", { id: "hand-clone", timestamp: "2025-06-05T00:00:00.000Z", parentSession: root }, [a1, { type: "usage", id: "c0ffee06", timestamp: "2025-06-05T01:00:00.000Z", provider: "hand", model: "title", usage: usage(16, 0.002) }]);
writeFileSync(join(secondProject, "hand-not-a-session.jsonl"), '{"hello":"world"}\n');
writeFileSync(join(secondProject, "hand-bad-header.jsonl"), JSON.stringify({ type: "session", version: 3, id: 42, timestamp: "2025-06-01T00:00:00.000Z", cwd: "/x" }) + "\n");
writeFileSync(join(secondProject, "hand-empty.jsonl"), "");

function envFor(cwd?: string, vars: Record<string, string> = {}): { env: QueryEnv; notes: string[] } {
  const notes: string[] = [];
  const all: Record<string, string> = { XDG_CACHE_HOME: cacheHome, ...vars };
  const env = createQueryEnv({
    fs: detectFileSystem(),
    storage: { env: (name) => all[name], home: work, processCwd: work },
    agentDir,
    cwd,
    report: { note: (m) => notes.push(m), notice: (m) => notes.push(m), warn: (m) => notes.push(m) },
  });
  return { env, notes };
}

/** The report as `usageStats` made it before: every record held by a refresh, then aggregated. */
async function heldStats(env: QueryEnv, options: StatsOptions): Promise<unknown> {
  const sessions = await usageSessions(env);
  const inScope = await usageScope(env, Boolean(options.all));
  const report = aggregateStats(sessions, {
    by: options.by ?? "day",
    tz: timeZoneOption(options.tz),
    since: dateOption(env, "since", options.since),
    until: dateOption(env, "until", options.until),
    inScope,
    breakdown: Boolean(options.breakdown),
    explain: options.explain,
  });
  return { totals: report.totals, rows: report.rows, copies: report.copies };
}

/** A session as handed on, its usage as plain values. */
function plain(s: UsageSession) {
  return { path: s.path, id: s.id, cwd: s.cwd, created: s.created, parentSession: s.parentSession, keys: s.usage.keys, numbers: [...s.usage.numbers], odd: s.usage.odd };
}

async function streamed(env: QueryEnv): Promise<{ from: string; sessions: ReturnType<typeof plain>[] }> {
  let sessions: ReturnType<typeof plain>[] = [];
  const from = await eachUsageSession(env, () => {
    sessions = [];
    return (s) => sessions.push(plain(s));
  });
  return { from, sessions };
}

async function held(env: QueryEnv) {
  return attributionOrder(await usageSessions(env)).map(plain);
}

test("eachUsageSession hands on the sessions of a refresh, in attribution order, with their rows: from SQLite a slice at a time", withSqlite, async () => {
  const { env, notes } = envFor();
  const skipped = () => notes.filter((n) => n.includes("hand-bad-header.jsonl")).length;
  const cold = await streamed(env);
  assert.equal(cold.from, "store", "a cold run reads the files into the store, then streams from it");
  assert.equal(skipped(), 1, notes.join("\n"));
  const warm = await streamed(env);
  assert.equal(warm.from, "store");
  assert.equal(skipped(), 2, "each run notes the skipped file once");
  const expected = await held(env);
  assert.ok(expected.length > 140, `${expected.length} sessions`);
  assert.deepEqual(warm.sessions, expected);
  assert.deepEqual(cold.sessions, expected);
  const chain = warm.sessions.map((s) => s.id).filter((id) => id.startsWith("hand-"));
  assert.deepEqual(chain.slice(0, 3), ["hand-root", "hand-middle", "hand-leaf"], "parents first, though the leaf's header is oldest");
});

test("eachUsageSession after an append reads that file into the store and still streams from it", withSqlite, async () => {
  const { env } = envFor();
  await streamed(env);
  const leaf = join(firstProject, "hand-leaf.jsonl");
  appendFileSync(leaf, JSON.stringify(paid("c0ffee07", "2025-06-06T10:00:00.000Z", 17)) + "\n");
  utimesSync(leaf, new Date(), new Date(Date.now() + 5000));
  const after = await streamed(env);
  assert.equal(after.from, "store");
  assert.deepEqual(after.sessions, await held(env));
  assert.ok(after.sessions.find((s) => s.id === "hand-leaf")!.numbers.length > 4 * 13);
});

test("eachUsageSession gives way to a refresh when a stored record no longer loads, with the same sessions", withSqlite, async () => {
  const { env } = envFor();
  await streamed(env);
  const isBun = (globalThis as { Bun?: unknown }).Bun !== undefined;
  const db = isBun ? await openBunSqlite(sqliteCatalogPath(join(cacheHome, "pi-session"))) : await openNodeSqlite(sqliteCatalogPath(join(cacheHome, "pi-session")));
  // Rows of the wrong length: the header still reads, the record does not.
  db.prepare("UPDATE records SET state = ? WHERE section = 'usage' AND file = (SELECT id FROM files WHERE path = ?)").run(
    JSON.stringify({ header: { id: "hand-middle", timestamp: "2025-06-02T07:00:00.000Z", cwd: "/x" }, rejected: false, data: { keys: [], numbers: [1, 2], odd: [] } }),
    middle,
  );
  db.close();
  const spoiled = await streamed(env);
  assert.equal(spoiled.from, "refresh");
  const expected = await held(env);
  assert.deepEqual(spoiled.sessions, expected);
  // The refresh read the file again and saved it: the next run streams.
  const again = await streamed(env);
  assert.equal(again.from, "store");
  assert.deepEqual(again.sessions, expected);
});

const OPTIONS: StatsOptions[] = [
  { all: true },
  { all: true, breakdown: true },
  { all: true, tz: "Asia/Tokyo" },
  { all: true, since: "2025-06-02", until: "2025-06-04" },
  { all: true, since: "2025-06-03T12:00:00Z", breakdown: true },
  { all: true, explain: true },
  { all: true, explain: "2025-06-02", tz: "UTC" },
  { all: false },
  { all: false, breakdown: true, since: "2025-06-01" },
];
const GROUPS = ["hour", "day", "week", "month", "model", "project", "session"] as const;

test("usageStats gives the report, byte for byte, of every session held at once, grouped every way and filtered", { timeout: 300_000 }, async () => {
  for (const cwd of [undefined, secondCwd]) {
    const { env } = envFor(cwd);
    for (const by of GROUPS) {
      for (const options of OPTIONS) {
        const asked = { ...options, by };
        const expected = JSON.stringify(await heldStats(env, asked));
        const found = JSON.stringify((await usageStats(env, asked)).value);
        assert.equal(found, expected, `${cwd ?? "here"} ${JSON.stringify(asked)}`);
      }
    }
  }
  const { env } = envFor();
  const report = (await usageStats(env, { all: true })).value;
  assert.ok(report.copies.entries > 100, `${report.copies.entries} copies`);
  assert.ok(report.rows.length >= 3, "several days");
  assert.ok((await usageStats(env, { all: true, by: "model" })).value.rows.length >= 3, "several models");
});

test("eachUsageSession hands on only the scope's files: a stored record of a file elsewhere (a nested folder's) is left out", withSqlite, async () => {
  const nested = join(firstProject, "nested");
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(nested, "hand-nested.jsonl"), [{ type: "session", version: 3, id: "hand-nested", timestamp: "2025-06-06T00:00:00.000Z", cwd: firstCwd }, paid("c0ffee07", "2025-06-06T01:00:00.000Z", 17)].map((e) => JSON.stringify(e) + "\n").join(""));
  try {
    // A run over that folder alone stores its record in the same catalog.
    const { env: there } = envFor();
    const inNested = await streamed(createQueryEnv({ fs: there.fs, storage: there.storage, agentDir, sessionDir: nested, report: there.report }));
    assert.deepEqual(inNested.sessions.map((s) => s.id), ["hand-nested"]);
    const { env } = envFor();
    const every = await streamed(env);
    assert.equal(every.from, "store");
    assert.ok(!every.sessions.some((s) => s.id === "hand-nested"), "the nested folder is not one of the scope's");
    assert.deepEqual(every.sessions, await held(env));
  } finally {
    rmSync(nested, { recursive: true, force: true });
  }
});
