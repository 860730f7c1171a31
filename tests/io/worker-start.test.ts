/**
 * `workerStart` gives each way this code runs the worker module it can load: the bundled .js in
 * Bun's executable, the .ts under Deno and Bun, tsx's first module under Node, none in a bundle.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { workerStart } from "../../src/io/worker-start.ts";

const NODE = !("Bun" in globalThis) && !("Deno" in globalThis);

test("workerStart() in Bun's executable names the worker's chunk beside the caller's", () => {
  const start = workerStart("query/skim-worker", "file:///$bunfs/root/chunk-1a2b.js");
  assert.equal(start?.url.href, "file:///$bunfs/root/query/skim-worker.js");
  assert.deepEqual(start?.argv, []);
  assert.equal(start?.throughLoader, false);
});

test("workerStart() in a JavaScript bundle gives null: there is no worker module", () => {
  assert.equal(workerStart("query/skim-worker", "file:///usr/lib/node_modules/pi-session/dist/cli/run-1a2b.mjs"), null);
  assert.equal(workerStart("query/skim-worker", "file:///app/node_modules/pi-session/dist/lib/io/worker-start.js"), null);
});

test("workerStart() in the sources names the .ts file, through tsx's first module under Node", () => {
  const start = workerStart("export/line-scan-worker", "file:///repo/src/io/worker-start.ts");
  if (NODE) {
    assert.equal(start?.url.href, "file:///repo/src/io/ts-worker.mjs");
    assert.deepEqual(start?.argv, ["file:///repo/src/export/line-scan-worker.ts"]);
    // tsx is loaded in the worker first: a slow start, which callers weigh.
    assert.equal(start?.throughLoader, true);
  } else {
    assert.equal(start?.url.href, "file:///repo/src/export/line-scan-worker.ts");
    assert.deepEqual(start?.argv, []);
    assert.equal(start?.throughLoader, false);
  }
});

test("workerStart() starts a TypeScript worker on this runtime (Node with tsx included)", { timeout: 60_000 }, async () => {
  const start = workerStart("query/skim-worker");
  assert.ok(start);
  // The skim worker with nothing to read answers with an error message: it loaded and ran.
  const inFlight = new SharedArrayBuffer(4);
  const worker = new Worker(start.url, { argv: start.argv, workerData: { path: "/no/such/session.jsonl", chars: 64, inFlight, slots: [], metas: [] } });
  try {
    const reply = await new Promise<unknown>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
    assert.ok(typeof reply === "object" && reply !== null && "error" in reply, JSON.stringify(reply));
  } finally {
    await worker.terminate();
  }
});
