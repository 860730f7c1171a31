import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { detectFileSystem } from "../../src/io/mod.ts";
import { ExportPool } from "../../src/otel/export-pool.ts";
import { readHeader } from "../../src/otel/span-entries.ts";
import { exportSession, type SessionJob } from "../../src/otel/session-export.ts";
import { otlpEncoder } from "../../src/otel/otlp-encode.ts";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { rowCount } from "../../src/core/digest/usage-state.ts";
import { allSessionFiles } from "../../src/session/list-sessions.ts";
import { generateSessions } from "../../scripts/gen-sessions.ts";

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
  const pool = await ExportPool.start(1, init, noLocal);
  try {
    const got = await pool.headers(paths);
    assert.deepEqual(got, here);
  } finally {
    await pool.close();
  }
});

test("ExportPool.headers() gives undefined without a worker, so the caller reads them itself", async () => {
  const pool = await ExportPool.start(0, init, noLocal);
  assert.equal(await pool.headers([join(work, "a.jsonl")]), undefined);
  await pool.close();
});

test("ExportPool hands over a long session's index and usage rows from a worker as the main thread makes them", { timeout: 60_000 }, async () => {
  const dir = join(work, "generated");
  await generateSessions({ dir, count: 6, seed: 20261202 });
  const fs = detectFileSystem();
  const files = (await allSessionFiles(fs, dir)).sort();
  const options = { encode: otlpEncoder("http/protobuf", {}), redactor: new Redactor(), content: false };
  const local = (job: SessionJob) => exportSession(fs, job, options);
  const jobs: SessionJob[] = files.map((path) => ({ path, walk: true, stream: true }));
  const here = [];
  for (const job of jobs) here.push(await local(job));
  assert.ok(here.some((r) => rowCount(r.usage) > 0 && (r.index?.callers.keys ?? 0) > 0));
  let localRuns = 0;
  const pool = await ExportPool.start(1, init, (job) => {
    localRuns++;
    return local(job);
  });
  try {
    pool.begin(jobs);
    for (const [i, want] of here.entries()) {
      const got = await pool.take();
      assert.deepEqual([...got.usage.numbers], [...want.usage.numbers], files[i]);
      assert.deepEqual(got.usage.keys, want.usage.keys);
      assert.deepEqual(got.index, want.index, files[i]);
      assert.equal(got.from, want.from);
    }
    assert.equal(localRuns, 0);
  } finally {
    await pool.close();
  }
});
