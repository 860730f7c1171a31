/**
 * The plan of an `otel` run: the headers of the files with something new (a worker reads a share
 * of them), the files out of scope left out, every session of the scope in attribution order, and
 * the job of each file to read. Made lean, as it is held through the run.
 * @module
 */
import { headerVersion } from "../core/migrate/migrate-session.ts";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../core/format/types.ts";
import { emptyUsageState } from "../core/digest/usage-state.ts";
import { attributionOrder, type UsageSession } from "../core/stats/attribution.ts";
import { normalizePath } from "../core/storage/paths.ts";
import type { QueryEnv } from "../query/env.ts";
import { sessionScope } from "../query/scope.ts";
import { sessionOfHeader } from "../query/usage-sessions.ts";
import { catalogUsage } from "./copies.ts";
import type { ExportPool } from "./export-pool.ts";
import type { SentRecord } from "./sent-store.ts";
import type { SessionJob } from "./session-export.ts";
import { readHeader } from "./span-entries.ts";

/**
 * A file of the current format this large or larger, content not sent, is read twice and its
 * spans streamed (session-stream.ts); a smaller one is held while it is attributed.
 */
export const STREAM_MIN_BYTES = 16 * 1024 * 1024;

/** What the plan takes of a run's options. */
export interface PlanOptions {
  /** For a flat session folder shared by projects: whether a header's cwd is in scope. */
  inCwd?: (cwd: string) => boolean;
  content: boolean;
  /** Default `STREAM_MIN_BYTES`. */
  streamMinBytes?: number;
}

/** A file whose size or time differs from what the receiver was last sent. */
export type Candidate = Omit<Changed, "header">;

/** A file with something new for the receiver. */
interface Changed {
  path: string;
  size: number;
  mtimeMs: number;
  record?: SentRecord;
  /** Null when its start did not show a session header (the full read then decides). */
  header: SessionHeader | null;
}

/** A session of the attribution: one this run reads (`changed`), or one whose usage the catalog has. */
type Attributed = UsageSession & { changed?: number };

/** Rows no session holds: what a session's usage becomes once attributed (its rows let go). */
export const NO_ROWS = emptyUsageState();

/**
 * The run's sessions in attribution order, made lean to be held through the run (25,000 of
 * them, while a giant session is read): the catalog's sessions as they are, each file this run
 * reads as its job and a few numbers, in typed arrays by job, not an object per file.
 */
export interface RunPlan {
  /** In attribution order: a session whose usage the catalog has, or undefined for the next job. */
  steps: (UsageSession | undefined)[];
  /** The files to read, in attribution order (let go once done with). */
  jobs: (SessionJob | undefined)[];
  /** Each job's file size and modification time when stated. */
  sizes: Float64Array;
  mtimes: Float64Array;
  /** 1 where the file's start did not show a session header (the full read then decides). */
  headerless: Uint8Array;
}

/**
 * Every session in attribution order, the files to export among them: those the run reads
 * itself have their usage filled in as they are read; the others' usage comes from the catalog
 * (all of every project's sessions take part: copies are recognised across projects).
 */
async function attributionPlan(env: QueryEnv, run: PlanOptions, changed: readonly Changed[]): Promise<RunPlan> {
  const own = new Set(changed.map((c) => normalizePath(c.path)));
  const every = await sessionScope(env, true);
  const others = every.files.filter((path) => !own.has(normalizePath(path)));
  const sessions: Attributed[] = await catalogUsage(env, others);
  for (const [i, c] of changed.entries()) sessions.push({ ...usageSessionOf(c.path, c.header), changed: i });
  const order = attributionOrder(sessions);
  const n = changed.length;
  const plan: RunPlan = { steps: [], jobs: [], sizes: new Float64Array(n), mtimes: new Float64Array(n), headerless: new Uint8Array(n) };
  for (const session of order) {
    if (session.changed === undefined) {
      plan.steps.push(session);
      continue;
    }
    const c = changed[session.changed];
    const k = plan.jobs.length;
    plan.steps.push(undefined);
    plan.jobs.push(jobOf(c, run.content, run.streamMinBytes ?? STREAM_MIN_BYTES));
    plan.sizes[k] = c.size;
    plan.mtimes[k] = c.mtimeMs;
    plan.headerless[k] = c.header === null ? 1 : 0;
  }
  return plan;
}

/** What the attribution needs of a session file: its path and header, its rows to come. */
export function usageSessionOf(path: string, header: SessionHeader | null): UsageSession {
  return sessionOfHeader(path, (header ?? {}) as Record<string, unknown>, NO_ROWS);
}

/** Files from which a worker reads a share of the headers (fewer: not worth a message). */
const SHARED_HEADERS_FROM = 256;
/**
 * The share of the headers a worker reads: less than half, as it is still loading when the
 * main thread starts on its own share (which blocks it: a reply could not be taken before).
 */
const WORKER_HEADER_SHARE = 1 / 3;

/**
 * The files' headers, in their order: the last third read by a worker meanwhile, when there is
 * one and enough files (it would otherwise wait idle for its first session).
 */
async function readHeaders(env: QueryEnv, paths: readonly string[], pool: ExportPool | undefined): Promise<(SessionHeader | null)[]> {
  const split = pool && paths.length >= SHARED_HEADERS_FROM ? Math.ceil(paths.length * (1 - WORKER_HEADER_SHARE)) : paths.length;
  const far = split < paths.length ? pool!.headers(paths.slice(split)) : undefined;
  const headers: (SessionHeader | null)[] = [];
  for (let i = 0; i < split; i++) headers.push(await readHeader(env.fs, paths[i]));
  const theirs = (await far) ?? [];
  for (let i = split; i < paths.length; i++) headers.push(theirs.length === paths.length - split ? theirs[i - split] : await readHeader(env.fs, paths[i]));
  return headers;
}

/**
 * The plan of the run: the headers of the files with something new read, those out of scope
 * left out, in attribution order. What it takes to make (the headers, a session object per file)
 * is let go when it returns.
 */
export async function planRun(env: QueryEnv, run: PlanOptions, candidates: readonly Candidate[], pool: ExportPool | undefined): Promise<RunPlan> {
  const changed: Changed[] = [];
  const headers = await readHeaders(env, candidates.map((c) => c.path), pool);
  for (const [i, item] of candidates.entries()) {
    const header = headers[i];
    if (header && run.inCwd && !run.inCwd(typeof header.cwd === "string" ? header.cwd : "")) continue;
    changed.push({ ...item, header });
  }
  return await attributionPlan(env, run, changed);
}

/**
 * The job of a file: walked when of the current format and its content is not sent, and then
 * streamed from `streamMin` bytes on; only read for its usage when its header names a parent (it
 * is mapped again once its copies are known).
 */
function jobOf(item: Changed, content: boolean, streamMin: number): SessionJob {
  const walk = !content && item.header !== null && headerVersion(item.header) >= CURRENT_SESSION_VERSION;
  const parent = item.header?.parentSession;
  const { record } = item;
  const job: SessionJob = { path: item.path, walk, stream: walk && item.size >= streamMin, record: record && { entries: record.entries, lastId: record.lastId } };
  if (typeof parent === "string" && parent !== "") job.usageOnly = true;
  return job;
}
