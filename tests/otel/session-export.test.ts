/**
 * One file of an `otel` run: a usage-only job (a fork or clone, mapped again on the main thread
 * once its copies are known) reads the same usage rows and entries as a full one, and makes no spans.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeUsage } from "../../src/core/digest/usage-state.ts";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { otlpEncoder } from "../../src/otel/otlp-encode.ts";
import { exportSession } from "../../src/otel/session-export.ts";

const dir = mkdtempSync(join(tmpdir(), "otel-session-export-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const usage = { input: 5, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 14, cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 } };
const lines = [
  { type: "session", version: 3, id: "fork-1", timestamp: "2025-06-01T10:00:00.000Z", cwd: "/w", parentSession: "/w/parent.jsonl" },
  { type: "message", id: "a0000001", parentId: null, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } },
  { type: "message", id: "a0000002", parentId: "a0000001", timestamp: "2025-06-01T10:00:02.000Z", message: { role: "assistant", provider: "p", model: "m", content: [{ type: "toolCall", id: "c1", name: "ls", arguments: {} }], usage, stopReason: "toolUse" } },
  { type: "message", id: "a0000003", parentId: "a0000002", timestamp: "2025-06-01T10:00:03.000Z", message: { role: "toolResult", toolCallId: "c1", toolName: "ls", content: [], isError: false } },
];

test("exportSession() of a usage-only job gives the usage rows and entries of a full job, and no spans", async () => {
  const path = join(dir, "fork.jsonl");
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const options = { encode: otlpEncoder("http/protobuf", {}), redactor: new Redactor(), content: false };
  const fs = detectFileSystem();
  for (const walk of [true, false]) {
    const full = await exportSession(fs, { path, walk }, options);
    const only = await exportSession(fs, { path, walk, usageOnly: true }, options);
    assert.equal(full.spans, 3, `walk ${walk}: root, chat and tool spans`);
    assert.ok(full.chunks.length > 0);
    assert.deepEqual([only.spans, only.chunks], [0, []], `walk ${walk}`);
    assert.deepEqual([only.header, only.entries, only.lastId, only.nothingNew], [full.header, full.entries, full.lastId, full.nothingNew]);
    assert.deepEqual(encodeUsage(only.usage), encodeUsage(full.usage));
  }
});
