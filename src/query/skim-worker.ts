/**
 * The worker thread of a skim ahead (skim-ahead.ts starts it): reads a session file, splits it
 * into lines and skims the long ones as the lean reader would (`skimLine`), and sends the lines
 * in order, a few megabytes a message (the buffers transferred, not copied). It waits while
 * `MAX_IN_FLIGHT` messages are not taken yet, so a slow reader never makes it hold the file.
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { CURRENT_SESSION_VERSION } from "../core/format/types.ts";
import { headerVersion } from "../core/migrate/migrate-session.ts";
import { type DecodeNotes, decodeObjectLine, isHeader } from "../core/read/decode-line.ts";
import { LEAN_KEPT_KEYS } from "../core/read/lean-entry.ts";
import { LineSplitter, type RawLine } from "../core/read/line-splitter.ts";
import { SKIM_FROM } from "../core/read/read-session.ts";
import { skimLine } from "../core/read/skim-line.ts";
import { detectFileSystem } from "../io/mod.ts";
import { BATCH_LINES, MAX_IN_FLIGHT, META, SKIMMED, type SkimReply, type SkimRequest, TERMINATED } from "./skim-ahead.ts";

const { path, chars, inFlight, batchBytes } = workerData as SkimRequest;
const flight = new Int32Array(inFlight);

/** Lines on their way: their bytes end to end, and per line its number, offset, length in the file, bytes here and flags. */
class Batch {
  readonly data: Uint8Array;
  readonly meta = new Float64Array(BATCH_LINES * META);
  at = 0;
  count = 0;
  constructor(size: number) {
    this.data = new Uint8Array(size);
  }

  fits(bytes: Uint8Array): boolean {
    return this.count < BATCH_LINES && this.at + bytes.length <= this.data.length;
  }

  add(line: RawLine, bytes: Uint8Array, skimmed: boolean): void {
    this.data.set(bytes, this.at);
    const m = this.count * META;
    this.meta[m] = line.number;
    this.meta[m + 1] = line.offset;
    this.meta[m + 2] = line.bytes.length;
    this.meta[m + 3] = bytes.length;
    this.meta[m + 4] = (line.terminated ? TERMINATED : 0) | (skimmed ? SKIMMED : 0);
    this.at += bytes.length;
    this.count++;
  }

  send(): void {
    const reply: SkimReply = { data: this.data, meta: this.meta, count: this.count };
    parentPort!.postMessage(reply, [this.data.buffer, this.meta.buffer] as ArrayBuffer[]);
    Atomics.add(flight, 0, 1);
    // Wait (a little at a time, so a stop is never missed) until the reader has taken enough.
    for (let waiting = Atomics.load(flight, 0); waiting >= MAX_IN_FLIGHT; waiting = Atomics.load(flight, 0)) Atomics.wait(flight, 0, waiting, 100);
  }
}

async function skim(): Promise<void> {
  let batch = new Batch(batchBytes);
  // As the reader decides: lines are skimmed once the first object is a current-version header.
  let found = false;
  let live = false;
  const notes: DecodeNotes = { bom: false, crlf: false };
  const splitter = new LineSplitter((line) => {
    let bytes = line.bytes;
    let skimmed = false;
    if (!found) {
      const value = decodeObjectLine(line, notes, []);
      if (value !== undefined) {
        found = true;
        live = isHeader(value) && headerVersion(value) >= CURRENT_SESSION_VERSION;
      }
    } else if (live && bytes.length >= SKIM_FROM) {
      const cut = skimLine(bytes, LEAN_KEPT_KEYS, chars);
      if (cut !== undefined) {
        bytes = cut;
        skimmed = true;
      }
    }
    if (!batch.fits(bytes)) {
      if (batch.count > 0) batch.send();
      batch = new Batch(Math.max(batchBytes, bytes.length));
    }
    batch.add(line, bytes, skimmed);
  });
  for await (const chunk of detectFileSystem().read(path, { reuseBuffer: true })) splitter.push(chunk);
  splitter.end();
  if (batch.count > 0) batch.send();
}

try {
  await skim();
  parentPort!.postMessage({ done: true } satisfies SkimReply);
} catch (error) {
  // The reader then reads the file itself, and meets any error there in its own words.
  parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies SkimReply);
}
