/**
 * Differential test on 520 sessions written by pi 1.6.0 (forks and clones by its own
 * createBranchedSession and forkFrom): stats totals = the sum over unique entries computed here,
 * info = pi's /session (addUsageToTotals), inherited usage, and the catalog listing.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { roundCost } from "../../src/core/info/round-cost.ts";
import { listAllSessions } from "../../src/session/list-sessions.ts";
import { sessionJson } from "../../src/query/list.ts";
import { matchesQuery } from "../../src/query/resume-search.ts";
import { listAllCached } from "../../src/catalog/list-cached.ts";
import { runCli } from "../cli/_harness.ts";
// The package's "exports" hides dist/, so the reference is imported by path.
import { loadEntriesFromFile } from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { addUsageToTotals, createUsageTotals } from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/usage-totals.js";

// deno-lint-ignore no-explicit-any
type Any = any;

const work = mkdtempSync(join(tmpdir(), "pi-session-stats-diff-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const files = await generateSessions({ dir: agentDir, count: 520, seed: 20260601 });

// The reference reads first: it may add a missing final newline to a file it loads.
const entriesOf = new Map<string, Any[]>(files.map((f) => [f, (loadEntriesFromFile(f) as Any[]).filter((e) => e.type !== "session")]));
const headerOf = (f: string): Any => (loadEntriesFromFile(f) as Any[]).find((e) => e.type === "session");

/** The usage pi's /session adds for an entry (getSessionStats), or undefined. */
function piUsage(entry: Any): Any {
  if (entry.type === "usage") return entry.usage;
  if ((entry.type === "branch_summary" || entry.type === "compaction") && entry.usage) return entry.usage;
  if (entry.type !== "message") return undefined;
  if (entry.message.role === "toolResult") return entry.message.usage || undefined;
  if (entry.message.role === "assistant") return entry.message.usage;
  return undefined;
}

const cli = (argv: string[]) =>
  runCli(argv, { fs: detectFileSystem(), env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "cache") }, home: work, processCwd: work });

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

test("differential: stats --all --json totals are the sum over unique entries", { timeout: 300_000 }, async () => {
  const seen = new Set<string>();
  const expected = createUsageTotals();
  let unique = 0;
  let copies = 0;
  for (const file of files) {
    for (const [i, entry] of entriesOf.get(file)!.entries()) {
      const usage = piUsage(entry);
      if (!usage) continue;
      const key = typeof entry.id === "string" && typeof entry.timestamp === "string" ? `${entry.id}|${entry.timestamp}` : `${file}|${i}`;
      if (seen.has(key)) {
        copies++;
        continue;
      }
      seen.add(key);
      unique++;
      addUsageToTotals(expected, usage);
    }
  }
  assert.ok(copies > 500, `the corpus should hold many forked copies, has ${copies}`);
  const cold = await cli(["stats", "--all", "--json", "--tz", "UTC"]);
  assert.equal(cold.code, 0, cold.stderr);
  assert.equal(cold.stderr, "");
  const { totals, rows } = JSON.parse(cold.stdout);
  assert.deepEqual(
    [totals.input, totals.output, totals.cacheRead, totals.cacheWrite],
    [expected.input, expected.output, expected.cacheRead, expected.cacheWrite],
  );
  assert.equal(totals.totalTokens, expected.input + expected.output + expected.cacheRead + expected.cacheWrite);
  assert.ok(close(totals.cost.total, expected.cost), `cost ${totals.cost.total} vs ${expected.cost}`);
  const summed = rows.reduce((n: number, r: Any) => n + r.input, 0);
  assert.equal(summed, totals.input);
  // Warm (from the catalog) and grouped otherwise: the same totals.
  for (const by of ["model", "project", "session", "month"]) {
    const again = JSON.parse((await cli(["stats", "--all", "--json", "--by", by])).stdout);
    assert.equal(again.totals.input, totals.input, by);
    assert.ok(close(again.totals.cost.total, totals.cost.total), by);
  }
  console.log(`# stats differential: ${files.length} sessions, ${unique} unique usage entries, ${copies} forked copies counted once`);
});

test("differential: info equals pi's /session totals, and a fork's inherited usage is what it shares with its parent", { timeout: 300_000 }, async () => {
  let plain = 0;
  let forks = 0;
  // created and modified as the uncached listing (itself checked against pi's listAll) gives them.
  const listed = new Map((await listAllSessions(detectFileSystem(), { agentDir })).map((s) => [s.path, s]));
  const iso = (d: Date | undefined) => (d && !Number.isNaN(d.getTime()) ? d.toISOString() : null);
  for (const file of files) {
    const expected = createUsageTotals();
    for (const entry of entriesOf.get(file)!) {
      const usage = piUsage(entry);
      if (usage) addUsageToTotals(expected, usage);
    }
    const run = await cli(["info", file, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const info = JSON.parse(run.stdout);
    assert.ok(listed.has(file), file);
    assert.deepEqual([info.created, info.modified], [iso(listed.get(file)!.created), iso(listed.get(file)!.modified)], file);
    const parent = headerOf(file).parentSession;
    if (parent === undefined) {
      plain++;
      assert.deepEqual(
        [info.usage.input, info.usage.output, info.usage.cacheRead, info.usage.cacheWrite, info.usage.cost.total],
        // JSON prints summed costs rounded to 1e-9 of a dollar (docs/JSON.md); pi's sum carries float noise.
        [expected.input, expected.output, expected.cacheRead, expected.cacheWrite, roundCost(expected.cost)],
        file,
      );
      assert.equal(info.inheritedUsage, null);
      continue;
    }
    forks++;
    assert.ok(close(info.usage.cost.total, expected.cost), file);
    const inParent = new Set(entriesOf.get(parent)!.map((e: Any) => `${e.id}|${e.timestamp}`));
    const inherited = createUsageTotals();
    for (const entry of entriesOf.get(file)!) {
      const usage = piUsage(entry);
      if (usage && inParent.has(`${entry.id}|${entry.timestamp}`)) addUsageToTotals(inherited, usage);
    }
    assert.equal(info.inheritedUsage.parentSession, parent);
    assert.equal(info.inheritedUsage.usage.input, inherited.input, file);
    assert.ok(close(info.inheritedUsage.usage.cost.total, inherited.cost), file);
  }
  assert.ok(plain >= 300 && forks >= 80, `${plain} plain sessions, ${forks} forks`);
  console.log(`# info differential: ${plain} sessions without a parent match pi's /session, ${forks} forks' inherited usage checked`);
});

test("differential: list --all --json through the catalog equals the uncached listing", { timeout: 120_000 }, async () => {
  const expected = (await listAllSessions(detectFileSystem(), { agentDir })).map(sessionJson);
  for (const round of ["cold", "warm"]) {
    const run = await cli(["list", "--all", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), expected, round);
  }
});

test("differential: message texts through the catalog (pick, list --search) equal the uncached listing's", { timeout: 120_000 }, async () => {
  const fs = detectFileSystem();
  const uncached = await listAllSessions(fs, { agentDir }, { withText: true });
  const expected = new Map(uncached.map((s) => [s.path, s.allMessagesText]));
  assert.ok([...expected.values()].filter((text) => text.length > 0).length > 400, "the corpus has message texts");
  for (const round of ["cold", "warm"]) {
    const cached = await listAllCached(fs, { agentDir }, { cacheDir: join(work, "text-cache"), realDisk: true, withText: true });
    assert.deepEqual(new Map(cached.map((s) => [s.path, s.allMessagesText])), expected, round);
  }
  // A word from the middle of some session's texts: list --search finds what pi's filter finds.
  const sample = uncached.find((s) => s.allMessagesText.split(" ").length > 40)!;
  const word = sample.allMessagesText.split(" ").filter((w) => /^[a-z]{6,}$/i.test(w)).at(-1)!;
  const run = await cli(["list", "--all", "--json", "--search", word]);
  assert.equal(run.code, 0, run.stderr);
  const found = JSON.parse(run.stdout).map((s: { path: string }) => s.path);
  assert.deepEqual(found, uncached.filter((s) => matchesQuery(s, word)).map((s) => s.path));
  assert.ok(found.includes(sample.path), `${word} finds ${sample.path}`);
});
