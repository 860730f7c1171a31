/**
 * A `stats` report goes on from what the last one was made from (usage-base.ts) when sessions
 * grew or were added, and gives the report a walk over every session gives, byte for byte; when
 * going on could give another (an entry first held elsewhere, a session rewritten or gone, a new
 * session that another names as parent), every session is walked again.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { SqliteCatalogStore } from "../../src/catalog/sqlite/sqlite-store.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { createQueryEnv, type QueryEnv } from "../../src/query/env.ts";
import { type StatsOptions, usageStats } from "../../src/query/stats.ts";
import { sqliteBinding } from "../catalog/_helpers.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-usage-base-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const cacheHome = join(work, "cache");
await generateSessions({ dir: agentDir, count: 60, seed: 20261203 });
const binding = await sqliteBinding();
const withSqlite = "skip" in binding ? { skip: binding.skip } : {};

// Rows loaded from the store: a walk over every session loads them all, going on from a base none.
let rowsLoaded = 0;
const loadRows = SqliteCatalogStore.prototype.loadRows;
SqliteCatalogStore.prototype.loadRows = function (...args) {
  rowsLoaded += args[1].length;
  return loadRows.apply(this, args);
};

function envFor(): QueryEnv {
  const vars: Record<string, string> = { XDG_CACHE_HOME: cacheHome, PI_SESSION_CHECK: "full" };
  return createQueryEnv({ fs: detectFileSystem(), storage: { env: (name) => vars[name], home: work, processCwd: work }, agentDir });
}

/** The report, and how many rows making it loaded. */
async function report(options: StatsOptions): Promise<{ text: string; loaded: number }> {
  rowsLoaded = 0;
  const text = JSON.stringify((await usageStats(envFor(), options)).value);
  return { text, loaded: rowsLoaded };
}

/** The report made by walking every session, whatever the catalog keeps (an explained row is never kept). */
const walked = async (options: StatsOptions) => JSON.stringify((await usageStats(envFor(), { ...options, explain: "no such row" })).value);

const sessionsDir = join(agentDir, "sessions");
const folders = () => readdirSync(sessionsDir).sort().map((name) => join(sessionsDir, name));
const filesIn = (folder: string) => readdirSync(folder).filter((name) => name.endsWith(".jsonl")).sort().map((name) => join(folder, name));
const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
/** A file whose header and entries are all v3 (ids and timestamps), with at least one paid turn. */
const v3Files = () => folders().flatMap(filesIn).filter((file) => {
  const [header, ...entries] = lines(file);
  return header.version === 3 && entries.some((e) => e.message?.usage) && header.parentSession === undefined;
});

/** Moves a file's mtime on, so that a full check sees it changed whatever the clock's step. */
let tick = 0;
function touch(file: string): void {
  const at = new Date(Date.now() + 10_000 + ++tick * 1000);
  utimesSync(file, at, at);
}

let serial = 0;
/** A paid assistant turn after `parentId`, with its own id and time. */
function paidTurn(parentId: string | null, cost = 0.25): object {
  const n = ++serial;
  const usage = { input: 1000 + n, output: 7, cacheRead: 3, cacheWrite: 0, totalTokens: 1010 + n, cost: { input: cost, output: 0.1, cacheRead: 0.0003, cacheWrite: 0, total: cost + 0.1003 } };
  const timestamp = new Date(Date.UTC(2026, 10, 1 + (n % 20), 8, n)).toISOString();
  return { type: "message", id: (0xb0000000 + n).toString(16), parentId, timestamp, message: { role: "assistant", content: [], provider: "anthropic", model: `claude-${n % 3}`, usage, stopReason: "stop", timestamp: Date.parse(timestamp) } };
}

function append(file: string, ...entries: object[]): void {
  appendFileSync(file, entries.map((e) => JSON.stringify(e) + "\n").join(""));
  touch(file);
}

function newSession(folder: string, header: Record<string, unknown>, entries: object[]): string {
  const file = join(folder, `2026-11-30T10-00-0${++serial % 10}-000Z_${header.id}.jsonl`);
  writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e) + "\n").join(""));
  touch(file);
  return file;
}

for (const options of [{ all: true, tz: "UTC", breakdown: true }, { all: true, tz: "UTC", by: "model" }] as StatsOptions[]) {
  test(`grown and new sessions are added to the last report (${options.by ?? "day"}), as a walk counts them`, withSqlite, async () => {
    const first = await report(options);
    assert.ok(first.loaded > 0, "the first report walks every session");
    assert.equal(first.text, await walked(options));
    assert.deepEqual(await report(options), { text: first.text, loaded: 0 }, "nothing changed: the report kept");

    // An append to a session.
    const [grown, parent] = v3Files();
    append(grown, paidTurn(lines(grown).at(-1).id));
    const appended = await report(options);
    assert.equal(appended.loaded, 0, "gone on from the base");
    assert.notEqual(appended.text, first.text);
    assert.equal(appended.text, await walked(options));

    // A fork of another: its copied entries are copies of its parent's, its own turn is new.
    const [header, ...entries] = lines(parent);
    const forkId = `0196f000-0000-7000-8000-${String(serial).padStart(12, "0")}`;
    const forkHeader = { ...header, id: forkId, timestamp: new Date(Date.parse(header.timestamp) + 60_000).toISOString(), parentSession: parent };
    const fork = newSession(join(parent, ".."), forkHeader, [...entries, paidTurn(entries.at(-1).id)]);
    const forked = await report(options);
    assert.equal(forked.loaded, 0, "gone on from the base");
    assert.equal(forked.text, await walked(options));
    assert.ok(JSON.parse(forked.text).copies.entries > JSON.parse(appended.text).copies.entries, "the fork's copies counted as copies");

    // Several at once: the fork grows, a new session of its own, and an append to the first.
    append(fork, paidTurn(lines(fork).at(-1).id, 1.5));
    const aloneId = `0196f000-0000-7000-8000-${String(++serial).padStart(12, "0")}`;
    newSession(folders()[1], { type: "session", version: 3, id: aloneId, timestamp: "2026-11-30T11:00:00.000Z", cwd: "/work/alone" }, [paidTurn(null), paidTurn(null)]);
    append(grown, paidTurn(lines(grown).at(-1).id));
    const several = await report(options);
    assert.equal(several.loaded, 0, "gone on from the base");
    assert.equal(several.text, await walked(options));
    // And the report it kept is read back.
    assert.deepEqual(await report(options), several);
  });
}

test("a change that going on could count wrongly has every session walked again", withSqlite, async () => {
  const options: StatsOptions = { all: true, tz: "UTC", by: "day", breakdown: true };
  await report(options);
  const [a, b, c] = v3Files();
  const check = async (what: string) => {
    const made = await report(options);
    assert.ok(made.loaded > 0, `${what}: walked`);
    assert.equal(made.text, await walked(options), what);
    assert.equal((await report(options)).loaded, 0, `${what}: then kept`);
  };

  // An entry appended that another session held first (its id and time): whose it is depends on the order.
  const held = lines(b).find((e) => e.message?.usage);
  append(a, { ...held, parentId: lines(a).at(-1).id });
  await check("an entry held first by another session");

  // A session rewritten: one of its costs changed in the middle of the file.
  const text = readFileSync(c, "utf8");
  const changed = text.replace(/"total":0\./, `"total":10.`);
  assert.notEqual(changed, text);
  writeFileSync(c, changed);
  touch(c);
  await check("a session rewritten");

  // A session gone.
  rmSync(b);
  await check("a session gone");

  // A fork older than its parent by header time: a walk up from it takes the parent out of its place.
  const { timestamp: parentTime, cwd } = lines(c)[0];
  newSession(join(c, ".."), { type: "session", version: 3, id: "0196f000-0000-7000-8000-00000000ffff", timestamp: new Date(Date.parse(parentTime) - 60_000).toISOString(), cwd, parentSession: c }, [paidTurn(null)]);
  await check("a fork older than its parent");

  // A new session whose parent is not there yet goes on; the parent arriving is walked again
  // (below: the parent's own parent then comes before a session it shares an entry with).
  const folder = join(a, "..");
  const parentPath = join(folder, "2026-11-29T09-00-00-000Z_0196f000-0000-7000-8000-00000000aaaa.jsonl");
  const childId = "0196f000-0000-7000-8000-00000000bbbb";
  const parentEntries = [paidTurn(null), paidTurn(null)];
  newSession(folder, { type: "session", version: 3, id: childId, timestamp: "2026-11-29T08:00:00.000Z", cwd: "/work/child", parentSession: parentPath }, [...parentEntries, paidTurn(null)]);
  const child = await report(options);
  assert.equal(child.loaded, 0, "a parent not there: gone on from the base");
  assert.equal(child.text, await walked(options));
  mkdirSync(folder, { recursive: true });
  writeFileSync(parentPath, [{ type: "session", version: 3, id: "0196f000-0000-7000-8000-00000000aaaa", timestamp: "2026-11-29T09:00:00.000Z", cwd: "/work/child" }, ...parentEntries].map((e) => JSON.stringify(e) + "\n").join(""));
  touch(parentPath);
  await check("the parent a session named arriving");

  // A new session whose header has a problem to tell: a walk tells it (and, while it is there, keeps no answer).
  const odd = newSession(join(a, ".."), { type: "session", version: 3, id: 12, timestamp: "2026-11-30T12:00:00.000Z", cwd: "/work/odd" }, [paidTurn(null)]);
  for (let i = 0; i < 2; i++) {
    const noted = await report(options);
    assert.ok(noted.loaded > 0, "a bad header: walked");
    assert.equal(noted.text, await walked(options));
  }
  rmSync(odd);
});

test("a parent arriving for a session that named it is walked again: it can put another session first", withSqlite, async () => {
  // R holds an entry first, Q (later) a copy of it; the child names a parent P not there yet. P
  // arrives, a fork of Q older than R: a walk up from the child (oldest) puts Q before R, and the
  // entry is Q's project's, not R's.
  const options: StatsOptions = { all: true, tz: "UTC", by: "project" };
  const folder = folders()[2];
  const shared = paidTurn(null, 7);
  const at = (hour: number) => `2026-11-27T${String(hour).padStart(2, "0")}:00:00.000Z`;
  const id = (n: number) => `0196f000-0000-7000-8000-0000000c00${n}0`;
  newSession(folder, { type: "session", version: 3, id: id(1), timestamp: at(10), cwd: "/work/r" }, [shared]);
  const q = newSession(folder, { type: "session", version: 3, id: id(2), timestamp: at(12), cwd: "/work/q" }, [shared]);
  const p = join(folder, `2026-11-27T09-00-00-000Z_${id(3)}.jsonl`);
  newSession(folder, { type: "session", version: 3, id: id(4), timestamp: at(8), cwd: "/work/child", parentSession: p }, [paidTurn(null)]);
  const before = await report(options);
  assert.equal(before.text, await walked(options));
  const project = (text: string, cwd: string) => JSON.parse(text).rows.find((row: { key: string }) => row.key === cwd);
  assert.equal(project(before.text, "/work/r")?.cost.total, 7.1003);
  assert.equal(project(before.text, "/work/q"), undefined);

  writeFileSync(p, [{ type: "session", version: 3, id: id(3), timestamp: at(9), cwd: "/work/p", parentSession: q }, paidTurn(null)].map((e) => JSON.stringify(e) + "\n").join(""));
  touch(p);
  const after = await report(options);
  assert.ok(after.loaded > 0, "walked");
  assert.equal(after.text, await walked(options));
  assert.equal(project(after.text, "/work/q")?.cost.total, 7.1003, "the shared entry is Q's now");
  assert.equal(project(after.text, "/work/r"), undefined);
});
