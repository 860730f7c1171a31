/**
 * `stats`: copied entries counted once, grouping, JSON shape, breakdown, explain, bounds, and
 * the errors a user can make.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addSession, harnessDeps, memoryFs, runCli, sessionDir, writeText } from "./_harness.ts";
import { dirName } from "../../src/core/storage/paths.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { run as runMain } from "../../src/cli/run.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { usageSessions } from "./_usage-sessions.ts";

async function setup() {
  const fs = memoryFs();
  const paths = await usageSessions(fs);
  return { fs, paths, stats: (...argv: string[]) => runCli(["stats", "--tz", "UTC", ...argv], { fs }) };
}

test("stats --json counts the fork's copied entries once, in this directory's sessions", async () => {
  const { stats } = await setup();
  const run = await stats("--json");
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(report), ["schemaVersion", "totals", "rows", "copies"]);
  assert.equal(report.schemaVersion, 1);
  assert.deepEqual([report.copies.entries, report.copies.usage.input], [1, 100]);
  assert.equal(report.totals.input, 700);
  assert.equal(report.totals.cost.total, 7);
  assert.deepEqual(report.rows.map((r: { key: string; input: number; sessions: number }) => [r.key, r.input, r.sessions]), [
    ["2025-06-01", 100, 1],
    ["2025-06-02", 200, 1],
    ["2025-06-03", 400, 1],
  ]);
  assert.deepEqual(Object.keys(report.rows[0]), ["key", "input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost", "sessions"]);
});

test("stats --all --by project / model / session groups every project", async () => {
  const { stats } = await setup();
  const rows = async (by: string) => JSON.parse((await stats("--all", "--json", "--by", by)).stdout).rows.map((r: { key: string; input: number }) => [r.key, r.input]);
  assert.deepEqual(await rows("project"), [["/work/other", 800], ["/work/proj", 700]]);
  assert.deepEqual(await rows("model"), [["anthropic/claude-test", 1500]]);
  assert.deepEqual(await rows("session"), [["33333333-cccc", 800], ["22222222-bbbb", 400], ["11111111-aaaa", 300]]);
  assert.deepEqual(await rows("month"), [["2025-06", 700], ["2025-07", 800]]);
});

test("stats prints a table with the per-model breakdown and says what copies were not added", async () => {
  const { stats } = await setup();
  const run = await stats("--by", "session", "--breakdown");
  assert.equal(run.code, 0);
  const lines = run.stdout.trimEnd().split("\n");
  assert.match(lines[0], /^Session\s+Input\s+Output\s+Cache read\s+Cache write\s+Tokens\s+Cost\s+Sessions$/);
  assert.match(lines[1], /^22222222\s+\/work\/proj\s+400\s+1\s+0\s+0\s+401\s+\$4\.000\s+1$/);
  assert.match(lines[2], /^ {2}anthropic\/claude-test\s+400/);
  assert.match(lines[3], /^11111111\s+Parser fix\s+300/);
  assert.match(lines[5], /^Total\s+700\s+3\s+0\s+0\s+703\s+\$7\.000$/);
  assert.match(lines[6], /^Counted once: 1 more copies .*\(\$1\.000\) were not added again$/);
});

test("stats --explain lists the entries behind a row, with their copies", async () => {
  const { stats } = await setup();
  const json = JSON.parse((await stats("--json", "--explain", "2025-06-01")).stdout);
  assert.deepEqual(json.rows[0].entries.map((e: { entryId: string; copies: number; source: string }) => [e.entryId, e.copies, e.source]), [["a1", 1, "assistant"]]);
  assert.equal(json.rows[1].entries, undefined);
  const text = (await stats("--explain")).stdout;
  assert.match(text, /2025-06-01: 1 entries\n {2}2025-06-01T10:00:01\.000Z {2}11111111-aaaa {2}a1 {2}assistant {2}anthropic\/claude-test {2}101 tokens {2}\$1\.000 {2}\(also in 1 other file\)/);
});

test("stats --since / --until bound the entries; bad values are usage errors", async () => {
  const { stats } = await setup();
  const total = async (...argv: string[]) => JSON.parse((await stats("--all", "--json", ...argv)).stdout).totals.input;
  assert.equal(await total("--since", "2025-06-02"), 1400);
  assert.equal(await total("--until", "2025-06"), 700);
  assert.equal(await total("--since", "2025-06-02T12:00:00Z", "--until", "2025-07-01"), 1200);
  const bad = await stats("--since", "yesterday");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--since: Cannot read the date "yesterday"/);
  const zone = await runCli(["stats", "--tz", "Mars/Olympus"], { fs: memoryFs() });
  assert.equal(zone.code, 2);
  assert.match(zone.stderr, /unknown time zone "Mars\/Olympus"/);
});

test("stats with no usage says so and exits 1 (JSON: zero totals, exit 1 too)", async () => {
  const fs = memoryFs();
  const run = await runCli(["stats"], { fs });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /No usage found for \/work\/proj; try --all/);
  const json = await runCli(["stats", "--json"], { fs });
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.stdout).rows, []);
});

/** An assistant entry of `model` (provider/name) with `n` input tokens costing `cost` dollars. */
function spent(id: string, parentId: string | null, timestamp: string, model: string, n: number, cost: number) {
  const provider = model.slice(0, model.indexOf("/"));
  const name = model.slice(provider.length + 1);
  const usage = { input: n, output: n, cacheRead: n * 10, cacheWrite: n, totalTokens: n * 13, cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
  const message = { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider, model: name, usage, stopReason: "stop", timestamp: Date.parse(timestamp) };
  return { type: "message", id, parentId, timestamp, message };
}

/** Three models with long names and big counts, one session. */
async function modelsFs(): Promise<FileSystem> {
  const fs = memoryFs();
  await addSession(fs, "44444444-dddd", [
    spent("m1", null, "2025-06-01T10:15:00.000Z", "google/gemini-2.5-flash-preview-05-20", 12_345_678, 0.1),
    spent("m2", "m1", "2025-06-01T11:45:00.000Z", "anthropic/claude-sonnet-4-20250514", 23_456_789, 0.2),
    spent("m3", "m2", "2025-06-01T11:50:00.000Z", "openrouter/qwen/qwen3-coder-480b-a35b-instruct", 3_456_789, 0.01),
  ]);
  return fs;
}

/** `stats argv…` on a terminal `columns` wide. */
async function onTerminal(fs: FileSystem, columns: number, ...argv: string[]) {
  const out = { stdout: "", stderr: "" };
  const deps = { ...harnessDeps({ fs, stdoutIsTTY: true, env: { NO_COLOR: "1" } }, out), columns };
  const code = await runMain(["stats", "--tz", "UTC", ...argv], deps);
  return { code, ...out };
}

test("stats --by model --breakdown prints each model once, not again under itself", async () => {
  const fs = await modelsFs();
  const text = (await runCli(["stats", "--by", "model", "--breakdown"], { fs })).stdout;
  for (const model of ["gemini-2.5-flash", "claude-sonnet-4", "qwen3-coder"]) {
    assert.equal(text.split("\n").filter((line) => line.includes(model)).length, 1, text);
  }
  const json = JSON.parse((await runCli(["stats", "--by", "model", "--breakdown", "--json"], { fs })).stdout);
  assert.equal(json.rows[0].models, undefined);
});

test("stats --json rounds summed costs to a billionth of a dollar", async () => {
  const fs = await modelsFs();
  const json = JSON.parse((await runCli(["stats", "--json", "--by", "day", "--tz", "UTC"], { fs })).stdout);
  // 0.1 + 0.2 + 0.01 in floats is 0.31000000000000005.
  assert.equal(json.totals.cost.total, 0.31);
  assert.equal(json.rows[0].cost.input, 0.31);
});

test("stats --by model at 80 columns keeps model names whole and no line wraps", async () => {
  const fs = await modelsFs();
  const run = await onTerminal(fs, 80, "--by", "model");
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  for (const line of lines) assert.ok(line.length <= 80, `${line.length} columns: ${line}`);
  assert.match(run.stdout, /google\/gemini-2\.5-flash-preview-05-20 /);
  assert.match(lines[0], /^Model\s+.*Tokens\s+Cost\s+Sessions$/);
  for (const width of [40, 20]) {
    for (const line of (await onTerminal(fs, width, "--by", "model")).stdout.trimEnd().split("\n")) assert.ok(line.length <= width, line);
  }
});

test("stats on a terminal that reports 0 columns lays out for 80", async () => {
  const fs = await modelsFs();
  assert.equal((await onTerminal(fs, 0, "--by", "model")).stdout, (await onTerminal(fs, 80, "--by", "model")).stdout);
});

test("stats --by hour groups by local hour, in time order", async () => {
  const fs = await modelsFs();
  const rows = JSON.parse((await runCli(["stats", "--json", "--by", "hour", "--tz", "UTC"], { fs })).stdout).rows;
  assert.deepEqual(rows.map((r: { key: string; input: number }) => [r.key, r.input]), [["2025-06-01 10:00", 12_345_678], ["2025-06-01 11:00", 26_913_578]]);
  const tokyo = JSON.parse((await runCli(["stats", "--json", "--by", "hour", "--tz", "Asia/Kolkata"], { fs })).stdout).rows;
  assert.deepEqual(tokyo.map((r: { key: string }) => r.key), ["2025-06-01 15:00", "2025-06-01 17:00"]);
});

test("stats --by session tells of a file with a bad header once, on disk through the runtime's catalog and in memory", async () => {
  const bad = '{"type":"session","version":3,"id":123,"timestamp":"2025-06-01T00:00:00Z","cwd":"/work/p"}\n';
  // In memory (no SQLite catalog: its rows' labels come from the sessions listed).
  const { fs, stats } = await setup();
  await writeText(fs, `${sessionDir()}/2025-06-09T00-00-00-000Z_bad.jsonl`, bad);
  // On a real disk (SQLite where the runtime has it: labels from the listing's rows).
  const work = mkdtempSync(join(tmpdir(), "pi-session-stats-bad-"));
  try {
    const agentDir = join(work, "agent");
    const disk = detectFileSystem();
    await copySessions(fs, disk, join(agentDir, "sessions"));
    const onDisk = (...argv: string[]) => runCli(["stats", "--tz", "UTC", ...argv], { fs: disk, env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "cache") }, home: work, processCwd: work });
    for (const run of [stats, onDisk]) {
      for (let i = 0; i < 2; i++) {
        const out = await run("--all", "--by", "session");
        assert.equal(out.code, 0, out.stderr);
        assert.equal(out.stderr.split("\n").filter((line) => line.includes("_bad.jsonl: line 1 is a session header but")).length, 1, out.stderr);
        // Rows labelled by name or cwd.
        assert.match(out.stdout, /^33333333  \/work\/other /m);
        assert.match(out.stdout, /^11111111  Parser fix /m);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

/** Every session file of the memory disk's sessions folder, copied to `to` on `disk` (folders kept). */
async function copySessions(from: FileSystem, disk: FileSystem, to: string): Promise<void> {
  const root = dirName(sessionDir());
  for (const folder of await from.list(root)) {
    for (const file of await from.list(`${root}/${folder.name}`)) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of from.read(`${root}/${folder.name}/${file.name}`)) chunks.push(chunk.slice());
      await disk.mkdir(`${to}/${folder.name}`, { recursive: true });
      await disk.writeAtomic(`${to}/${folder.name}/${file.name}`, Buffer.concat(chunks));
    }
  }
}
