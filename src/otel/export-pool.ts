/**
 * Worker threads that read, map and encode session files for an `otel` run (export-worker.ts),
 * so that a run uses more than one core: the main thread hands out paths and gets back usage
 * rows and encoded bytes (objects do not travel: cloning spans cost more than making them). A
 * job whose worker fails, or a pool whose workers cannot start (a runtime that cannot load the
 * worker's module, such as the npm package's bundle: see io/worker-start.ts), runs on the main thread instead:
 * the same function, the same answer, only slower.
 * @module
 */
import type { Worker } from "node:worker_threads";
import type { SessionHeader } from "../core/format/types.ts";
import { workerStart } from "../io/worker-start.ts";
import type { OtlpProtocol } from "./otlp-config.ts";
import type { BatchLimits } from "./batches.ts";
import type { SessionExport, SessionJob } from "./session-export.ts";

/** What every worker of a run is started with. */
export interface WorkerInit {
  protocol: OtlpProtocol;
  resource: Record<string, string>;
  limits?: BatchLimits;
}

/** A job, or (`headers`) files whose headers to read. */
export type WorkerRequest = { id: number; job: SessionJob; headers?: undefined } | { id: number; headers: string[]; job?: undefined };

/** A job's result, the headers asked for, or the error met; id -1 once the worker has loaded. */
export type WorkerReply = { id: number; result?: SessionExport; headers?: (SessionHeader | null)[]; error?: string };

interface Pending {
  job: SessionJob;
  resolve: (result: SessionExport) => void;
  reject: (error: unknown) => void;
}

/** One worker and the jobs it was given. */
class Lane {
  readonly worker: Worker;
  readonly pending = new Map<number, Pending>();
  alive = true;

  constructor(worker: Worker) {
    this.worker = worker;
  }
}

/** A job's result to come. */
interface Slot {
  promise: Promise<SessionExport>;
}

/**
 * Jobs a worker holds at a time: one it works on, more waiting, so that it never idles. The main
 * thread hands out more only between two of its own steps (a request gzipped and sent, a session
 * attributed), each worth several small sessions: with 4, the worker of `otel --all` on the
 * bench's 2,400 sessions waited 530-550 ms of its run to be fed (by hand, load 9); with 16, 50-280.
 */
const DEPTH = 16;
/**
 * How far past the result the run takes next the workers may go (results wait in memory till
 * then): a few requests' worth, so that they keep mapping while the main thread waits for the
 * receiver to answer.
 */
const LOOKAHEAD = 64;

/**
 * A fixed set of workers sharing one run's jobs: `take` hands out results in job order; each
 * worker is given the next job whenever it holds fewer than `DEPTH`. The main thread maps no
 * session itself (it attributes, joins, gzips and sends): sharing the mapping with it was
 * measured slower, as a file read blocks it and its workers then wait to be given more.
 *
 * @example
 * ```ts
 * const pool = await ExportPool.start(1, init, (job) => exportSession(fs, job, options));
 * pool.begin(jobs);
 * for (const _ of jobs) use(await pool.take());
 * await pool.close();
 * ```
 */
export class ExportPool {
  readonly #lanes: Lane[] = [];
  readonly #local: (job: SessionJob) => Promise<SessionExport>;
  #jobs: readonly (SessionJob | undefined)[] = [];
  #slots: (Slot | undefined)[] = [];
  /** The first job nobody has started, and the next result `take` hands out. */
  #next = 0;
  #taken = 0;
  #ids = 0;
  /** Headers asked of a worker, by request id. */
  readonly #headerWaits = new Map<number, { lane: Lane; resolve: (headers: (SessionHeader | null)[] | undefined) => void }>();

  private constructor(local: (job: SessionJob) => Promise<SessionExport>) {
    this.#local = local;
  }

  /**
   * `size` workers (they load while the caller goes on); `local` runs a job on this thread.
   * `node:worker_threads` is loaded only for workers to start (none on two cores): loading it
   * costs 40 ms and 250 page faults in a compiled binary that does nothing else (Bun 1.4.5).
   */
  static async start(size: number, init: WorkerInit, local: (job: SessionJob) => Promise<SessionExport>): Promise<ExportPool> {
    const pool = new ExportPool(local);
    const start = size > 0 ? workerStart("otel/export-worker") : null;
    if (start === null) return pool;
    const { Worker } = await import("node:worker_threads");
    for (let i = 0; i < size; i++) {
      let worker: Worker;
      try {
        worker = new Worker(start.url, { argv: start.argv, workerData: init });
      } catch {
        break;
      }
      const lane = new Lane(worker);
      worker.on("message", (reply: WorkerReply) => pool.#onReply(lane, reply));
      worker.on("error", () => pool.#retire(lane));
      worker.on("exit", () => pool.#retire(lane));
      pool.#lanes.push(lane);
    }
    return pool;
  }

  /**
   * The headers of `paths` (null where there is none to use) read by a worker while this thread
   * reads others; undefined when no worker is left or it met an error (read them here then).
   */
  headers(paths: string[]): Promise<(SessionHeader | null)[] | undefined> {
    const lane = this.#lanes.find((l) => l.alive);
    if (!lane) return Promise.resolve(undefined);
    const id = this.#ids++;
    return new Promise((resolve) => {
      this.#headerWaits.set(id, { lane, resolve });
      lane.worker.postMessage({ id, headers: paths } satisfies WorkerRequest);
    });
  }

  /**
   * The run's jobs, in the order `take` hands out their results. The caller may let a job go
   * (its place in `jobs` undefined) once its result was taken.
   */
  begin(jobs: readonly (SessionJob | undefined)[]): void {
    this.#jobs = jobs;
    this.#feed();
  }

  /** The result of the next job (mapped here when no worker is left). */
  take(): Promise<SessionExport> {
    const i = this.#taken++;
    this.#feed();
    const slot = this.#slots[i] ?? this.#slot(this.#next++, this.#local(this.#jobs[i]!));
    this.#slots[i] = undefined;
    return slot.promise;
  }

  /** Stops the workers (until then they keep the process alive). */
  async close(): Promise<void> {
    const lanes = this.#lanes.splice(0);
    for (const lane of lanes) lane.alive = false;
    await Promise.all(lanes.map((lane) => lane.worker.terminate().catch(() => {})));
  }

  #slot(i: number, promise: Promise<SessionExport>): Slot {
    const slot: Slot = { promise };
    // Awaited in turn by `take`; until then a failure must not count as unhandled.
    promise.catch(() => {});
    this.#slots[i] = slot;
    return slot;
  }

  /** Gives each worker jobs up to `DEPTH`, as far as `LOOKAHEAD` allows. */
  #feed(): void {
    for (const lane of this.#lanes) {
      while (lane.alive && lane.pending.size < DEPTH && this.#next < this.#jobs.length && this.#next <= this.#taken + LOOKAHEAD) {
        const i = this.#next++;
        const job = this.#jobs[i]!;
        const id = this.#ids++;
        this.#slot(i, new Promise((resolve, reject) => lane.pending.set(id, { job, resolve, reject })));
        lane.worker.postMessage({ id, job } satisfies WorkerRequest);
      }
    }
  }

  #onReply(lane: Lane, reply: WorkerReply): void {
    const wait = this.#headerWaits.get(reply.id);
    if (wait) {
      this.#headerWaits.delete(reply.id);
      wait.resolve(reply.headers);
      return;
    }
    const pending = lane.pending.get(reply.id);
    if (!pending) return;
    lane.pending.delete(reply.id);
    if (reply.result) pending.resolve(reply.result);
    else this.#local(pending.job).then(pending.resolve, pending.reject);
    this.#feed();
  }

  /** A worker that failed or ended: its jobs run here. */
  #retire(lane: Lane): void {
    if (!lane.alive) return;
    lane.alive = false;
    for (const [id, wait] of this.#headerWaits) {
      if (wait.lane !== lane) continue;
      this.#headerWaits.delete(id);
      wait.resolve(undefined);
    }
    const jobs = [...lane.pending.values()];
    lane.pending.clear();
    for (const p of jobs) this.#local(p.job).then(p.resolve, p.reject);
  }
}
