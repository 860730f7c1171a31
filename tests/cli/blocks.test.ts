/**
 * `blocks`: the 5-hour windows as a table that fits 80 columns, the active block's burn rate,
 * JSON, and what it says when there is nothing.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { addSession, harnessDeps, memoryFs, runCli } from "./_harness.ts";
import { run as runMain } from "../../src/cli/run.ts";
import type { FileSystem } from "../../src/io/file-system.ts";

function spent(id: string, parentId: string | null, timestamp: string, model: string, n: number, cost: number) {
  const provider = model.slice(0, model.indexOf("/"));
  const usage = { input: n, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: n, cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
  const message = { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider, model: model.slice(provider.length + 1), usage, stopReason: "stop", timestamp: Date.parse(timestamp) };
  return { type: "message", id, parentId, timestamp, message };
}

const NOW = new Date("2025-06-01T16:30:00.000Z");

async function blocksFs(): Promise<FileSystem> {
  const fs = memoryFs();
  await addSession(fs, "44444444-dddd", [
    spent("m1", null, "2025-06-01T09:15:00.000Z", "google/gemini-2.5-flash-preview-05-20", 1_000, 0.1),
    spent("m2", "m1", "2025-06-01T15:00:00.000Z", "anthropic/claude-sonnet-4-20250514", 300_000, 0.1),
    spent("m3", "m2", "2025-06-01T15:30:00.000Z", "anthropic/claude-sonnet-4-20250514", 300_000, 0.2),
  ]);
  return fs;
}

test("blocks --json gives each 5-hour block, the open one with its burn rate and projection", async () => {
  const run = await runCli(["blocks", "--json"], { fs: await blocksFs(), now: NOW });
  assert.equal(run.code, 0, run.stderr);
  const json = JSON.parse(run.stdout);
  assert.deepEqual([json.schemaVersion, json.blockHours, json.now], [1, 5, NOW.toISOString()]);
  assert.deepEqual(json.blocks.map((b: { start: string; active: boolean; totalTokens: number }) => [b.start, b.active, b.totalTokens]), [
    ["2025-06-01T09:00:00.000Z", false, 1_000],
    ["2025-06-01T15:00:00.000Z", true, 600_000],
  ]);
  assert.deepEqual(json.blocks[1].burnRate, { tokensPerMinute: 20_000, costPerHour: 0.6 });
  assert.deepEqual(json.blocks[1].projection, { totalTokens: 600_000 + 20_000 * 210, cost: 2.4 });
  const active = JSON.parse((await runCli(["blocks", "--json", "--active"], { fs: await blocksFs(), now: NOW })).stdout);
  assert.equal(active.blocks.length, 1);
});

test("blocks prints a table that fits 80 columns and marks the active block", async () => {
  const out = { stdout: "", stderr: "" };
  const deps = { ...harnessDeps({ fs: await blocksFs(), now: NOW, stdoutIsTTY: true, env: { NO_COLOR: "1" } }, out), columns: 80 };
  const code = await runMain(["blocks", "--tz", "UTC"], deps);
  assert.equal(code, 0, out.stderr);
  const lines = out.stdout.trimEnd().split("\n");
  for (const line of lines) assert.ok(line.length <= 80, line);
  assert.match(lines[0], /^Start\s+Activity\s+Models\s+Tokens\s+Cost\s+Sessions$/);
  assert.match(lines[1], /^2025-06-01 09:00\s+0h 00m\s+gemini-2\.5-flash-\S*\s+1,000\s+\$0\.100\s+1$/);
  assert.match(lines[2], /^2025-06-01 15:00\s+3h 30m left\s+claude-sonnet-4-\S*\s+600,000\s+\$0\.300\s+1$/);
  assert.match(out.stdout, /Active block since 15:00, ends at 20:00 \(3h 30m left\)\n {2}Burn rate: 20,000 tokens\/min, \$0\.600\/h\n {2}Projected at 20:00: 4,800,000 tokens, \$2\.400\n/);
});

test("blocks with no usage says so and exits 1; a bad --since is a usage error", async () => {
  const none = await runCli(["blocks"], { fs: memoryFs() });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /No usage found for \/work\/proj; try --all/);
  const inactive = await runCli(["blocks", "--active"], { fs: await blocksFs(), now: new Date("2025-06-02T12:00:00Z") });
  assert.equal(inactive.code, 1);
  assert.match(inactive.stderr, /No active block/);
  assert.equal((await runCli(["blocks", "--since", "soon"], { fs: memoryFs() })).code, 2);
});
