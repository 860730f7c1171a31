/**
 * The worker thread of an `otel` run (export-pool.ts starts it): session files in, their usage
 * rows and encoded chunks out (or, at the start of a run, a share of the files' headers) (the chunks' buffers transferred, not copied). It reads through
 * the runtime's own file system and sends no content (the pool is used only then).
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { Redactor } from "../core/redact/redactor.ts";
import { detectFileSystem } from "../io/mod.ts";
import { ExportGarbage } from "./export-garbage.ts";
import { otlpEncoder } from "./otlp-encode.ts";
import { exportSession, type SessionExport } from "./session-export.ts";
import { readHeader } from "./span-entries.ts";
import type { WorkerInit, WorkerReply, WorkerRequest } from "./export-pool.ts";

const init = workerData as WorkerInit;
const fs = detectFileSystem();
const garbage = new ExportGarbage();
const options = { encode: otlpEncoder(init.protocol, init.resource), limits: init.limits, redactor: new Redactor(), content: false, garbage };

/** The buffers a reply can hand over instead of copying: the chunks' (each its own), an index's times. */
function transfers(result: SessionExport): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const chunk of result.chunks) buffers.add(chunk.body.buffer as ArrayBuffer);
  if (result.index) buffers.add(result.index.times.buffer as ArrayBuffer);
  return [...buffers];
}

parentPort!.on("message", async ({ id, job, headers }: WorkerRequest) => {
  let reply: WorkerReply;
  if (headers) {
    try {
      const read = [];
      for (const path of headers) read.push(await readHeader(fs, path));
      reply = { id, headers: read };
    } catch (error) {
      // The main thread reads them itself and meets the error there.
      reply = { id, error: error instanceof Error ? error.message : String(error) };
    }
    parentPort!.postMessage(reply);
    return;
  }
  try {
    const result = await exportSession(fs, job, options);
    reply = { id, result };
    parentPort!.postMessage(reply, transfers(result));
  } catch (error) {
    // The main thread runs the job itself and meets the error there, with its own words.
    reply = { id, error: error instanceof Error ? error.message : String(error) };
    parentPort!.postMessage(reply);
  }
  // The file's garbage, once its chunks are handed over.
  garbage.session();
});
parentPort!.postMessage({ id: -1 } satisfies WorkerReply);
