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
import { GarbagePacer } from "../io/garbage-pacer.ts";
import { detectFileSystem } from "../io/mod.ts";
import { BATCH_LINES, META, SKIMMED, type SkimReply, type SkimRequest, TERMINATED } from "./skim-ahead.ts";

const { path, chars, inFlight, slots, metas } = workerData as SkimRequest;
const flight = new Int32Array(inFlight);
/** Bytes read between two collections of this thread's garbage. */
const GARBAGE_EVERY = 32 * 1024 * 1024;
/** Slot batches sent so far: the next one goes to slot `filled % slots.length`. */
let filled = 0;

/**
 * Lines on their way: their bytes end to end, and per line its number, offset, length in the
 * file, bytes here and flags; in the next slot, or (`size`: for a line longer than a slot) in
 * buffers of its own.
 */
class Batch {
  readonly data: Uint8Array;
  readonly meta: Float64Array;
  readonly slot: number;
  at = 0;
  count = 0;
  constructor(size?: number) {
    if (size === undefined) {
      this.slot = filled++ % slots.length;
      this.data = new Uint8Array(slots[this.slot]);
      this.meta = new Float64Array(metas[this.slot]);
    } else {
      this.slot = -1;
      this.data = new Uint8Array(size);
      this.meta = new Float64Array(META);
    }
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
    if (this.slot >= 0) parentPort!.postMessage({ slot: this.slot, bytes: this.at, count: this.count } satisfies SkimReply);
    else parentPort!.postMessage({ data: this.data, meta: this.meta, count: this.count } satisfies SkimReply, [this.data.buffer, this.meta.buffer] as ArrayBuffer[]);
    Atomics.add(flight, 0, 1);
    // Wait (a little at a time, so a stop is never missed) until the reader has taken enough:
    // then the next slot's lines have been taken too.
    for (let waiting = Atomics.load(flight, 0); waiting >= slots.length; waiting = Atomics.load(flight, 0)) Atomics.wait(flight, 0, waiting, 100);
  }
}

async function skim(): Promise<void> {
  let batch = new Batch();
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
      if (batch.count > 0) {
        batch.send();
        batch = new Batch();
      }
      if (!batch.fits(bytes)) {
        // Longer than a slot: a message of its own (the empty slot waits for the next lines).
        const alone = new Batch(bytes.length);
        alone.add(line, bytes, skimmed);
        alone.send();
        return;
      }
    }
    batch.add(line, bytes, skimmed);
  });
  // Skimming leaves garbage behind (cut lines, long lines put together across pieces): collected
  // young as the read goes, or this thread's heap grows by tens of megabytes.
  const pacer = new GarbagePacer({ everyAmount: GARBAGE_EVERY, amountYoung: true });
  for await (const chunk of detectFileSystem().read(path, { reuseBuffer: true })) {
    pacer.add(chunk.length);
    splitter.push(chunk);
  }
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
