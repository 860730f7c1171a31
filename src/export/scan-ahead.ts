/**
 * The secret scan of a big session's lines on a second thread (line-scan-worker.ts), started
 * before the export's light pass: while this thread finds the tree and the branch, the worker
 * reads the file too and works out each line's `Redactor.scan` flags, which the export then takes
 * instead of scanning the line itself. A line the worker has not reached yet, or that is not where
 * and as long as the worker saw it, is scanned here as before. Where no worker can start (a
 * runtime without one, the npm bundle, which has no worker module), everything is scanned here.
 *
 * The worker begins where this thread is when it gets going (`flagsOf` keeps that place in shared
 * memory): from the first line when it starts at once (Bun's executable), further on when it
 * starts late (under Node the sources' worker loads tsx first, which can take longer than the
 * export's loop: there it is only started for files of `SCAN_AHEAD_THROUGH_LOADER_FROM`), so
 * that what it scans is still to come here. Lines are known by where they are in the file.
 *
 * The export's loop does not give the event loop a turn between lines (its reads and writes may
 * be synchronous), so the worker's segments come over a port of their own that `flagsOf` reads
 * synchronously (`receiveMessageOnPort`) when it lacks a line's: a 'message' event alone would
 * only be delivered once the export is over.
 *
 * The flags are of the bytes the worker read: when the file was written to during the export
 * (`unchanged` says), the export scans the lines it wrote again and fails if any differs, so a
 * secret is never let through on the strength of bytes that are no longer there.
 * @module
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { RedactOptions } from "../core/redact/redactor.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { detectFileSystem } from "../io/mod.ts";
import { workerStart } from "../io/worker-start.ts";

/**
 * Lines per message from the worker: small enough that the first flags come early (the 90 MB
 * bench session has 11,000 lines), large enough that the 1.2 GB one takes a few hundred messages.
 */
export const SCAN_SEGMENT = 1024;

/** Lines asked for in vain between two looks at the port (a look is a call into the runtime). */
const POLL_EVERY = 64;

/** Files smaller than this are scanned on the main thread: a worker's start costs more. */
export const SCAN_AHEAD_FROM = 32 * 1024 * 1024;

/**
 * The same where the worker starts through a TypeScript loader (tsx under Node, see
 * `WorkerStart.throughLoader`). On the 90 MB bench session such a worker came too late to spare
 * this thread anything and cost the process twice the CPU (HTML export, 5 alternated runs each
 * at load 9–10: this thread 420–500 ms of CPU with it, 390–500 without; the process 1.17–1.71 s
 * against 0.61–0.81 s). The scan costs this thread about 1 ms a megabyte (90–110 ms of CPU on
 * that session with every flag ready, README), so a start of 0.5 s and more is only won back on
 * files of half a gigabyte and more.
 */
export const SCAN_AHEAD_THROUGH_LOADER_FROM = 512 * 1024 * 1024;

/** The size from which a file's scan goes to a worker started as `start` says. */
export function scanAheadFrom(start: { throughLoader: boolean }): number {
  return start.throughLoader ? SCAN_AHEAD_THROUGH_LOADER_FROM : SCAN_AHEAD_FROM;
}

/** What the worker is started with. */
export interface ScanRequest {
  path: string;
  options: RedactOptions;
  /** Where the worker sends its replies. */
  port: MessagePort;
  /** One number: the offset of the line this thread asked for last, where the worker begins. */
  position: SharedArrayBuffer;
}

/** One message from the worker: a segment of lines (in file order), the end, or a failure. */
export type ScanReply =
  | { flags: Uint8Array; offsets: Float64Array; lengths: Float64Array }
  | { done: true }
  | { error: string };

type Segment = Extract<ScanReply, { flags: Uint8Array }>;

/**
 * @example
 * ```ts
 * // const ahead = await ScanAhead.start(fs, path, { secrets: true });
 * // … the light pass …
 * // const flags = ahead?.flagsOf(offset, length) ?? -1; // -1: scan it here
 * // if (ahead && !(await ahead.unchanged())) … scan again what was written
 * // await ahead?.close();
 * ```
 */
export class ScanAhead {
  readonly #fs: FileSystem;
  readonly #path: string;
  readonly #before: FileStat;
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #position: Float64Array;
  /** In file order (the worker goes forward from where it began). */
  readonly #segments: Segment[] = [];
  /** Whether the worker sent its last line or failed: nothing more will come. */
  #over = false;
  #misses = 0;
  /** The segment `#lineAt` found its line in. */
  #found = 0;
  #resolve: () => void = () => {};
  /** Whether any line's flags were handed out (only then does a change matter). */
  #used = false;
  /** Settles when the worker has sent its last line, failed or stopped. */
  readonly finished: Promise<void>;

  private constructor(fs: FileSystem, path: string, before: FileStat, worker: Worker, port: MessagePort, position: Float64Array) {
    this.#position = position;
    this.#fs = fs;
    this.#path = path;
    this.#before = before;
    this.#worker = worker;
    this.#port = port;
    this.finished = new Promise((resolve) => (this.#resolve = resolve));
    port.on("message", (reply: ScanReply) => this.#take(reply));
    // A worker that fails leaves its lines to this thread.
    worker.on("error", () => this.#end());
    worker.on("exit", () => this.#end());
  }

  #take(reply: ScanReply): void {
    if ("flags" in reply) {
      if (reply.flags.length > 0) this.#segments.push(reply);
    } else this.#end();
  }

  #end(): void {
    this.#over = true;
    this.#resolve();
  }

  /** Takes the replies that have come, without waiting. */
  #drain(): void {
    for (let got = receiveMessageOnPort(this.#port); got !== undefined; got = receiveMessageOnPort(this.#port)) this.#take(got.message as ScanReply);
  }

  /**
   * Starts the worker for a file of at least `from` bytes (by default `scanAheadFrom`: more where
   * the worker is slow to start); null for a smaller one, for a file system other than the
   * runtime's own (the worker reads through that), or where no worker starts.
   */
  static async start(fs: FileSystem, path: string, options: RedactOptions, from?: number): Promise<ScanAhead | null> {
    if (fs !== detectFileSystem()) return null;
    const start = workerStart("export/line-scan-worker");
    if (start === null) return null;
    const before = await fs.stat(path);
    if (before === null || !before.isFile || before.size < (from ?? scanAheadFrom(start))) return null;
    try {
      // Stopped by `close` (the export command's `finally`), whatever happens.
      const { port1, port2 } = new MessageChannel();
      const position = new SharedArrayBuffer(8);
      const worker = new Worker(start.url, { argv: start.argv, workerData: { path, options, port: port2, position } satisfies ScanRequest, transferList: [port2] });
      return new ScanAhead(fs, path, before, worker, port1, new Float64Array(position));
    } catch {
      return null;
    }
  }

  /**
   * The flags the worker found for the line at byte `offset` (without its `\n`, and a `\r` before
   * it, `length` bytes long), or -1 when it has not got there (yet), or saw no such line there.
   */
  flagsOf(offset: number, length: number): number {
    this.#position[0] = offset;
    let k = this.#lineAt(offset);
    if (k < 0) {
      if (this.#over || this.#misses++ % POLL_EVERY !== 0) return -1;
      this.#drain();
      k = this.#lineAt(offset);
      if (k < 0) return -1;
    }
    const segment = this.#segments[this.#found];
    if (segment.lengths[k] !== length) return -1;
    this.#used = true;
    return segment.flags[k];
  }

  /** The index of the line at `offset` in the segment it sets `#found` to, or -1 (two binary searches). */
  #lineAt(offset: number): number {
    const segments = this.#segments;
    let low = 0;
    let high = segments.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (segments[mid].offsets[0] <= offset) low = mid + 1;
      else high = mid - 1;
    }
    if (high < 0) return -1;
    const offsets = segments[high].offsets;
    this.#found = high;
    low = 0;
    high = offsets.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = offsets[mid];
      if (at === offset) return mid;
      if (at < offset) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /**
   * True when the file is as it was before the worker started (size and modification time), or
   * when no flags were handed out: then what was written was scanned as written.
   */
  async unchanged(): Promise<boolean> {
    if (!this.#used) return true;
    const now = await this.#fs.stat(this.#path);
    return now !== null && now.size === this.#before.size && now.mtimeMs === this.#before.mtimeMs;
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    this.#port.close();
    await this.#worker.terminate().catch(() => {});
  }
}
