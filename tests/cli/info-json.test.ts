/**
 * `info --json`: the usage totals are sums of float dollars, printed without float noise.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { addSession, memoryFs, runCli } from "./_harness.ts";

function paid(id: string, parentId: string | null, cost: number) {
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
  const message = { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: "p", model: "m", usage, stopReason: "stop", timestamp: 1 };
  return { type: "message", id, parentId, timestamp: "2025-06-01T10:00:02.000Z", message };
}

test("info --json rounds summed costs to a billionth of a dollar", async () => {
  const fs = memoryFs();
  // 0.1 + 0.2 is 0.30000000000000004 in floats.
  await addSession(fs, "11111111-aaaa", [paid("a1", null, 0.1), paid("a2", "a1", 0.2)]);
  const run = await runCli(["info", "11111111-aaaa", "--json"], { fs });
  assert.equal(run.code, 0, run.stderr);
  const info = JSON.parse(run.stdout);
  assert.equal(info.usage.cost.total, 0.3);
  assert.equal(info.usage.cost.input, 0.3);
  assert.equal(info.schemaVersion, 1);
});
