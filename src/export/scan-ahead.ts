/**
 * The secret scan of a big session's lines on a second thread (line-scan-worker.ts), started
 * before the export's light pass: while this thread finds the tree and the branch, the worker
 * reads the file too and works out each line's `Redactor.scan` flags, which the export then takes
 * instead of scanning the line itself. A line the worker has not reached yet, or that is not where
 * and as long as the worker saw it, is scanned here as before. Where no worker can start (a
 * runtime without one, the npm bundle, which has no worker module), everything is scanned here.
 *
 * The flags are of the bytes the worker read: when the file was written to during the export
 * (`unchanged` says), the export scans the lines it wrote again and fails if any differs, so a
 * secret is never let through on the strength of bytes that are no longer there.
 * @module
 */
import { Worker } from "node:worker_threads";
import type { RedactOptions } from "../core/redact/redactor.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { detectFileSystem } from "../io/mod.ts";
import { workerStart } from "../io/worker-start.ts";

/** Lines per message from the worker. */
export const SCAN_SEGMENT = 8192;

/** Files smaller than this are scanned on the main thread: a worker's start costs more. */
export const SCAN_AHEAD_FROM = 32 * 1024 * 1024;

/** What the worker is started with. */
export interface ScanRequest {
  path: string;
  options: RedactOptions;
}

/** One message from the worker: a segment of lines (from line number `first`), the end, or a failure. */
export type ScanReply =
  | { first: number; flags: Uint8Array; offsets: Float64Array; lengths: Float64Array }
  | { done: true }
  | { error: string };

type Segment = Extract<ScanReply, { first: number }>;

/**
 * @example
 * ```ts
 * // const ahead = await ScanAhead.start(fs, path, { secrets: true });
 * // … the light pass …
 * // const flags = ahead?.flagsOf(lineNumber, offset, length) ?? -1; // -1: scan it here
 * // if (ahead && !(await ahead.unchanged())) … scan again what was written
 * // await ahead?.close();
 * ```
 */
export class ScanAhead {
  readonly #fs: FileSystem;
  readonly #path: string;
  readonly #before: FileStat;
  readonly #worker: Worker;
  readonly #segments: Segment[] = [];
  /** Whether any line's flags were handed out (only then does a change matter). */
  #used = false;
  /** Settles when the worker has sent its last line, failed or stopped. */
  readonly finished: Promise<void>;

  private constructor(fs: FileSystem, path: string, before: FileStat, worker: Worker) {
    this.#fs = fs;
    this.#path = path;
    this.#before = before;
    this.#worker = worker;
    this.finished = new Promise((resolve) => {
      worker.on("message", (reply: ScanReply) => {
        if ("first" in reply) this.#segments[(reply.first - 1) / SCAN_SEGMENT] = reply;
        else resolve();
      });
      // A worker that fails leaves its lines to this thread.
      worker.on("error", () => resolve());
      worker.on("exit", () => resolve());
    });
  }

  /**
   * Starts the worker for a file of at least `from` bytes; null for a smaller one, for a file
   * system other than the runtime's own (the worker reads through that), or where no worker starts.
   */
  static async start(fs: FileSystem, path: string, options: RedactOptions, from = SCAN_AHEAD_FROM): Promise<ScanAhead | null> {
    if (fs !== detectFileSystem()) return null;
    const before = await fs.stat(path);
    if (before === null || !before.isFile || before.size < from) return null;
    const start = workerStart("export/line-scan-worker");
    if (start === null) return null;
    try {
      // Stopped by `close` (the export command's `finally`), whatever happens.
      const worker = new Worker(start.url, { argv: start.argv, workerData: { path, options } satisfies ScanRequest });
      return new ScanAhead(fs, path, before, worker);
    } catch {
      return null;
    }
  }

  /**
   * The flags the worker found for line `number` (1-based), or -1 when it has not got there yet or
   * saw another line there (not at `offset`, or not `length` bytes long).
   */
  flagsOf(number: number, offset: number, length: number): number {
    const segment = this.#segments[Math.floor((number - 1) / SCAN_SEGMENT)];
    if (segment === undefined) return -1;
    const k = number - segment.first;
    if (k >= segment.flags.length || segment.offsets[k] !== offset || segment.lengths[k] !== length) return -1;
    this.#used = true;
    return segment.flags[k];
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
    await this.#worker.terminate().catch(() => {});
  }
}
