import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { detectFileSystem } from "../../src/io/mod.ts";
import { ExportPool } from "../../src/otel/export-pool.ts";
import { readHeader } from "../../src/otel/span-entries.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-export-pool-"));
after(() => rmSync(work, { recursive: true, force: true }));

const init = { protocol: "http/protobuf" as const, resource: {} };
const noLocal = () => Promise.reject(new Error("no session job in this test"));

test("ExportPool.headers() reads on a worker the same headers readHeader() reads, null where there is none", { timeout: 60_000 }, async () => {
  const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p", parentSession: "/x/parent.jsonl" };
  const paths = [join(work, "a.jsonl"), join(work, "b.jsonl"), join(work, "c.jsonl")];
  writeFileSync(paths[0], JSON.stringify(header) + "\n" + JSON.stringify({ type: "message", id: "e1", parentId: null, timestamp: header.timestamp, message: { role: "user", content: "hi" } }) + "\n");
  writeFileSync(paths[1], JSON.stringify({ type: "message", id: "e1" }) + "\n");
  writeFileSync(paths[2], "");
  const fs = detectFileSystem();
  const here = [];
  for (const path of paths) here.push(await readHeader(fs, path));
  assert.equal(here[0]?.id, "s1");
  const pool = ExportPool.start(1, init, noLocal);
  try {
    const got = await pool.headers(paths);
    // Node loads no TypeScript worker (the pool's jobs run on the main thread there): undefined.
    const workerLoads = "Bun" in globalThis || "Deno" in globalThis;
    if (workerLoads || got !== undefined) assert.deepEqual(got, here);
  } finally {
    await pool.close();
  }
});

test("ExportPool.headers() gives undefined without a worker, so the caller reads them itself", async () => {
  const pool = ExportPool.start(0, init, noLocal);
  assert.equal(await pool.headers([join(work, "a.jsonl")]), undefined);
  await pool.close();
});
