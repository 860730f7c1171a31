/**
 * The worker thread of an `otel` run (export-pool.ts starts it): session files in, their usage
 * rows and encoded chunks out (or, at the start of a run, a share of the files' headers) (the chunks' buffers transferred, not copied). It reads through
 * the runtime's own file system and sends no content (the pool is used only then).
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { keyArrays } from "../core/intern/mod.ts";
import { Redactor } from "../core/redact/redactor.ts";
import { detectFileSystem } from "../io/mod.ts";
import { ExportGarbage } from "./export-garbage.ts";
import { otlpEncoder } from "./otlp-encode.ts";
import { exportSession, type SessionExport } from "./session-export.ts";
import { readHeader } from "./span-entries.ts";
import type { StringTable } from "./string-table.ts";
import type { WorkerInit, WorkerReply, WorkerRequest } from "./export-pool.ts";

const init = workerData as WorkerInit;
const fs = detectFileSystem();
const garbage = new ExportGarbage();
const options = { encode: otlpEncoder(init.protocol, init.resource), limits: init.limits, redactor: new Redactor(), content: false, garbage };

/**
 * The buffers a reply can hand over instead of copying, each its own and not used here again:
 * the chunks', the usage rows', and an index's arrays (a copy of the 1.2 GB session's index and
 * rows, made while the worker still held them, was the run's peak).
 */
function transfers(result: SessionExport): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  const add = (array: ArrayBufferView) => {
    if (array.byteLength > 0) buffers.add(array.buffer as ArrayBuffer);
  };
  for (const chunk of result.chunks) add(chunk.body);
  add(result.usage.numbers);
  const index = result.index;
  if (index) for (const array of [index.times, index.idKeys, ...tableArrays(index.ids), ...tableArrays(index.callers)]) add(array);
  return [...buffers];
}

/** A string table's arrays (each block its own). */
function tableArrays(table: StringTable): ArrayBufferView[] {
  return [...keyArrays(table), ...table.values.blocks];
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
    garbage.planned(headers.length);
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
