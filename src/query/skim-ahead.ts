/**
 * Reading a session with lean entries (`info`, `check`, `tree`), a big one on two threads: a
 * worker (skim-worker.ts) reads the file, splits it into lines and skims the long ones, which is
 * most of the work on a session whose bytes are mostly tool output; this thread parses what it
 * is sent and keeps the entries, as the one-thread read does, with the same result. A skimmed
 * line that does not parse cleanly is read again here and parsed whole, as the one-thread read
 * would. Where no worker starts (a runtime without one, the npm bundle, which has no worker
 * module: see io/worker-start.ts) or the worker fails, the file is read on this thread as before.
 * @module
 */
import type { Worker } from "node:worker_threads";
import type { RawLine } from "../core/read/line-splitter.ts";
import { type ReadOptions, type SessionFile, SessionReader } from "../core/read/read-session.ts";
import type { FileSystem } from "../io/file-system.ts";
import { detectFileSystem } from "../io/mod.ts";
import { workerStart } from "../io/worker-start.ts";

/** Smaller files are read on this thread: a worker's start costs more than it saves. */
export const SKIM_AHEAD_FROM = 32 * 1024 * 1024;
/** Bytes of lines per message from the worker (a longer line gets a message of its own). */
export const BATCH_BYTES = 1024 * 1024;
/** Lines per message at most. */
export const BATCH_LINES = 4096;
/** Messages the worker sends before it waits for this thread to take them (and slots of lines). */
export const MAX_IN_FLIGHT = 4;
/** Numbers per line in a message's `meta`: number, offset, length in the file, bytes in `data`, flags. */
export const META = 5;
/** Flags of a line: it ends with `\n`; its bytes are skimmed. */
export const TERMINATED = 1;
export const SKIMMED = 2;

/**
 * What the worker is started with. `inFlight` holds one Int32: the messages sent and not yet
 * taken. `slots` and `metas`: `MAX_IN_FLIGHT` buffers the lines go through in turn (shared
 * memory, so nothing is allocated per message and the memory in use stays put).
 */
export interface SkimRequest {
  path: string;
  chars: number;
  inFlight: SharedArrayBuffer;
  slots: SharedArrayBuffer[];
  metas: SharedArrayBuffer[];
}

/**
 * One message from the worker: lines in slot `slot` (`bytes` of them, `count` lines), lines too
 * long for a slot in buffers of their own, the end, or a failure.
 */
export type SkimReply =
  | { slot: number; bytes: number; count: number }
  | { data: Uint8Array; meta: Float64Array; count: number }
  | { done: true }
  | { error: string };

/** The worker's messages, one at a time, in order. */
class Replies {
  readonly #queue: SkimReply[] = [];
  #wake: (() => void) | null = null;

  constructor(worker: Worker) {
    const put = (reply: SkimReply) => {
      this.#queue.push(reply);
      this.#wake?.();
      this.#wake = null;
    };
    worker.on("message", put);
    worker.on("error", (error: unknown) => put({ error: String(error) }));
    worker.on("exit", () => put({ error: "the worker stopped" }));
  }

  async next(): Promise<SkimReply> {
    while (this.#queue.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
    return this.#queue.shift()!;
  }
}

/** Bytes `[start, start + length)` of the file, or null when it no longer has them. */
async function readRange(fs: FileSystem, path: string, start: number, length: number): Promise<Uint8Array | null> {
  const bytes = new Uint8Array(length);
  let at = 0;
  for await (const chunk of fs.read(path, { start, end: start + length })) {
    if (at + chunk.length > length) return null;
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return at === length ? bytes : null;
}

/**
 * The read with the worker, or null when it could not be made (a smaller file, options that do
 * not skim, no worker, a failure): then read on this thread. `batchBytes`: bytes of a slot
 * (`BATCH_BYTES`; tests make it small).
 */
export async function readSessionAhead(fs: FileSystem, path: string, options: ReadOptions, onRead: (bytes: number) => void = () => {}, from = SKIM_AHEAD_FROM, batchBytes = BATCH_BYTES): Promise<SessionFile | null> {
  if (options.keep === undefined || options.skim === undefined || options.skimChars === undefined || fs !== detectFileSystem()) return null;
  // A file that cannot be stat'ed (a link loop) is left to the read, which says so in its words.
  const stat = await fs.stat(path).catch(() => null);
  if (stat === null || !stat.isFile || stat.size < from) return null;
  const start = workerStart("query/skim-worker");
  if (start === null) return null;
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  const slots = Array.from({ length: MAX_IN_FLIGHT }, () => new SharedArrayBuffer(batchBytes));
  const metas = Array.from({ length: MAX_IN_FLIGHT }, () => new SharedArrayBuffer(BATCH_LINES * META * 8));
  let worker: Worker;
  try {
    // Loaded here, for a large file only: every command that reads a session imports this module.
    const { Worker } = await import("node:worker_threads");
    worker = new Worker(start.url, { argv: start.argv, workerData: { path, chars: options.skimChars, inFlight: inFlight.buffer as SharedArrayBuffer, slots, metas } satisfies SkimRequest });
  } catch {
    return null;
  }
  try {
    const replies = new Replies(worker);
    const reader = new SessionReader(options);
    const own = new Uint8Array(batchBytes);
    const ownMeta = new Float64Array(BATCH_LINES * META);
    for (;;) {
      const reply = await replies.next();
      if ("done" in reply) return reader.end();
      if ("error" in reply) return null;
      const count = reply.count;
      let data: Uint8Array;
      let meta: Float64Array;
      if ("slot" in reply) {
        // Copied out, so the worker can fill the slot again while these lines are parsed.
        data = own.subarray(0, reply.bytes);
        data.set(new Uint8Array(slots[reply.slot], 0, reply.bytes));
        meta = ownMeta;
        meta.set(new Float64Array(metas[reply.slot], 0, count * META));
      } else ({ data, meta } = reply);
      Atomics.sub(inFlight, 0, 1);
      Atomics.notify(inFlight, 0);
      let at = 0;
      let read = 0;
      for (let k = 0; k < count; k++) {
        const m = k * META;
        const length = meta[m + 2];
        const size = meta[m + 3];
        const flags = meta[m + 4];
        const line: RawLine = { bytes: data.subarray(at, at + size), number: meta[m], offset: meta[m + 1], terminated: (flags & TERMINATED) !== 0 };
        at += size;
        read += length + (line.terminated ? 1 : 0);
        if (reader.pushLine(line, length, (flags & SKIMMED) !== 0)) continue;
        // Skimmed bytes that will not do: the whole line, from the file.
        const whole = await readRange(fs, path, line.offset, length);
        if (whole === null) return null;
        reader.pushLine({ ...line, bytes: whole }, length, false);
      }
      onRead(read);
    }
  } finally {
    await worker.terminate().catch(() => {});
  }
}

/**
 * Reads the session at `path` (as `readSession` of its bytes does), on two threads when it is
 * `from` bytes or more and `options` keep lean entries of skimmed lines (`skimChars`).
 * `onRead`: told the bytes of each piece read (a garbage collection hint).
 *
 * @example
 * ```ts
 * // const file = await readSessionFile(fs, path, LEAN_READ);
 * ```
 */
export async function readSessionFile(fs: FileSystem, path: string, options: ReadOptions = {}, onRead: (bytes: number) => void = () => {}, from = SKIM_AHEAD_FROM): Promise<SessionFile> {
  const ahead = await readSessionAhead(fs, path, options, onRead, from);
  if (ahead !== null) return ahead;
  const reader = new SessionReader(options);
  for await (const chunk of fs.read(path, { reuseBuffer: true })) {
    onRead(chunk.length);
    reader.push(chunk);
  }
  return reader.end();
}
