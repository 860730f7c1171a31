/**
 * The run of `otel`: which session files have something new for this receiver, their new
 * entries as spans (copies from a parent left out), cut into bounded requests and sent one after
 * the other (or written as OTLP/JSON lines, or only counted), the next sessions read while a
 * request is on its way; what the receiver accepted is remembered, a failed request stops the
 * run and leaves its sessions to the next one. Each file with something new is read once: its
 * usage rows are attributed as it is read (sessions in attribution order), and only the other
 * sessions' usage comes from the catalog. Files are mapped and encoded by `exportSession`, on
 * worker threads (export-pool.ts) for a large run; a fork or clone again here, without its copies.
 * A long file (`STREAM_MIN_BYTES`) is read there for its usage and the index of its entries
 * only, then here again, once attributed, its requests handed out as they fill
 * (session-stream.ts): neither its entries nor its encoded spans are ever all held. What to read,
 * in which order, is the plan (run-plan.ts).
 * @module
 */
import type { Redactor } from "../core/redact/redactor.ts";
import { UsageAttribution } from "../core/stats/attribution.ts";
import { defaultCacheDir } from "../catalog/open-catalog.ts";
import type { QueryEnv } from "../query/env.ts";
import { type Batch, Packer } from "./batches.ts";
import { attributeSession, parentIdentities } from "./copies.ts";
import { ExportGarbage } from "./export-garbage.ts";
import { ExportPool } from "./export-pool.ts";
import type { OtlpConfig, OtlpProtocol } from "./otlp-config.ts";
import { joinRequests, otlpEncoder, type PartialSuccess } from "./otlp-encode.ts";
import { sendRequest, type SendResult } from "./otlp-send.ts";
import { type SentRecord, SentStore } from "./sent-store.ts";
import { exportSession, type SessionExport, type SessionExportOptions, type SessionJob } from "./session-export.ts";
import { streamSession } from "./session-stream.ts";
import { type Candidate, NO_ROWS, planRun, usageSessionOf } from "./run-plan.ts";

export interface OtelRun {
  files: readonly string[];
  /** For a flat session folder shared by projects: whether a header's cwd is in scope. */
  inCwd?: (cwd: string) => boolean;
  config: OtlpConfig;
  /** Send, write OTLP/JSON lines to `out` (or to `write` when given), or only count. */
  mode: "send" | "out" | "dry-run";
  out?: string;
  write?: (line: string) => void;
  resend: boolean;
  content: boolean;
  redactor: Redactor;
  /** False for an entry time before `--since`. */
  wanted?: (ms: number) => boolean;
  /** Whether to show a progress line (on a terminal; elsewhere the reporter's note would talk of the catalog). */
  progress?: boolean;
  /**
   * Worker threads that read, map and encode beside the main thread (0 or absent: none). Used
   * for runs without content or `--since`, on the runtime's own file system and the default
   * redaction (the workers have no other), when the files to read add up to `poolMinBytes`.
   */
  workers?: number;
  /** Default `POOL_MIN_BYTES`. */
  poolMinBytes?: number;
  /** Default `STREAM_MIN_BYTES`. */
  streamMinBytes?: number;
  /** Retry tuning (tests shorten the waits). */
  baseDelayMs?: number;
  /** Default `SAVE_EVERY_MS`. */
  saveEveryMs?: number;
}

export interface OtelSummary {
  /** Sessions with something new (spans or not). */
  sessions: number;
  spans: number;
  requests: number;
  /** Sessions whose spans were all accepted (or written). */
  delivered: number;
  rejectedSpans: number;
  partial: PartialSuccess[];
  /** The request that failed, if one did (the run stops there). */
  failure?: SendResult & { ok: false };
  /** Files that are not sessions, skipped. */
  skipped: string[];
}

/** Files adding up to less than this are read on the main thread: starting workers would cost more. */
export const POOL_MIN_BYTES = 16 * 1024 * 1024;

/**
 * Time between two saves of the sent-store during a run (it is saved at the end too), so that a
 * run cut short (Ctrl-C, a reboot) sends at most this much again, with the same ids. By time,
 * not by requests: a save is the store as JSON, written and synced, and the bench's cold run of
 * 194 requests saved four times: 52 ms of its 1.36 s (medians of 7, interleaved, the binary with
 * and without those saves).
 */
export const SAVE_EVERY_MS = 5000;

/** Runs an export; the caller reports the summary. */
export async function runOtelExport(env: QueryEnv, run: OtelRun): Promise<OtelSummary> {
  const summary: OtelSummary = { sessions: 0, spans: 0, requests: 0, delivered: 0, rejectedSpans: 0, partial: [], skipped: [] };
  const store = run.mode === "out" ? undefined : await SentStore.open(env.fs, defaultCacheDir(env.storage), run.config.endpoint);
  const candidates: Candidate[] = [];
  for (const path of [...run.files].sort()) {
    const stat = await env.fs.stat(path);
    if (stat === null || !stat.isFile) continue;
    const record = run.resend ? undefined : store?.get(path);
    if (record && record.size === stat.size && record.mtimeMs === stat.mtimeMs) continue;
    candidates.push({ path, size: stat.size, mtimeMs: stat.mtimeMs, record });
  }
  if (candidates.length === 0) return summary;
  const protocol = run.mode === "out" ? "http/json" : run.config.protocol;
  const garbage = new ExportGarbage();
  const options: SessionExportOptions = { encode: otlpEncoder(protocol, run.config.resource), redactor: run.redactor, content: run.content, wanted: run.wanted, garbage };
  const local = (job: SessionJob) => exportSession(env.fs, job, options);
  // Workers map as the defaults do (no content, no --since, the default redaction); started now,
  // they load while the headers are read.
  const bytes = candidates.reduce((n, c) => n + c.size, 0);
  const workers = bytes >= (run.poolMinBytes ?? POOL_MIN_BYTES) && !run.content && !run.wanted ? run.workers ?? 0 : 0;
  const pool = workers > 0 ? await ExportPool.start(workers, { protocol, resource: run.config.resource }, local) : undefined;
  try {
    return await exportChanged(env, run, { summary, store, candidates, protocol, options, local, pool, garbage });
  } finally {
    await pool?.close();
  }
}

interface RunState {
  summary: OtelSummary;
  store: SentStore | undefined;
  candidates: Candidate[];
  protocol: OtlpProtocol;
  /** How this thread maps and encodes. */
  options: SessionExportOptions;
  /** A job on this thread. */
  local: (job: SessionJob) => Promise<SessionExport>;
  pool: ExportPool | undefined;
  /** This thread's collections. */
  garbage: ExportGarbage;
}

/** The run once the files with something new are known. */
async function exportChanged(env: QueryEnv, run: OtelRun, state: RunState): Promise<OtelSummary> {
  const { summary, store, options, local, pool, garbage } = state;
  const { steps, jobs, sizes, mtimes, headerless } = await planRun(env, run, state.candidates, state.pool);
  state.candidates = [];
  // What reading the headers and ordering the sessions left, before the first session is read.
  garbage.planned(jobs.length);
  pool?.begin(jobs);
  let taken = 0;
  /** The next result in plan order: from the workers, else mapped here. */
  const nextResult = () => (pool ? pool.take() : local(jobs[taken++]!));

  const packer = new Packer();
  /** A request's chunks as one body, valid until the next request is joined (see `joinRequests`). */
  const join = joinRequests(state.protocol);
  /**
   * Spans of each session not yet accepted, and the record to keep once none are left and none
   * are to come (`open`: a streamed session whose spans are still being made).
   */
  const waiting = new Map<string, { left: number; open: boolean; record: SentRecord }>();
  const saveEvery = run.saveEveryMs ?? SAVE_EVERY_MS;
  let savedAt = performance.now();
  if (run.mode === "out" && !run.write) await env.fs.writeAtomic(run.out!, new Uint8Array(0));

  const deliver = async (batch: Batch): Promise<boolean> => {
    summary.requests++;
    // Gzipped (or written) before this returns, so before the next request is joined.
    const body = join(batch.parts);
    batch.parts = [];
    if (run.mode === "send") {
      const result = await sendRequest({
        ...run.config,
        baseDelayMs: run.baseDelayMs,
        onRetry: (n, reason, delay) => env.report.note(`pi-session: request ${summary.requests} failed (${reason}); retry ${n} in ${Math.round(delay / 100) / 10} s`),
      }, body);
      if (!result.ok) {
        summary.failure = result;
        return false;
      }
      if (result.partial) {
        summary.partial.push(result.partial);
        summary.rejectedSpans += result.partial.rejectedSpans;
      }
    } else if (run.mode === "out") {
      const line = new TextDecoder().decode(body) + "\n";
      if (run.write) run.write(line);
      else await env.fs.append(run.out!, new TextEncoder().encode(line));
    }
    for (const [key, n] of batch.sessions) {
      const w = waiting.get(key)!;
      w.left -= n;
      if (w.left === 0 && !w.open) finish(key);
    }
    // Now and then, so that a run cut short does not send it all again.
    if (run.mode === "send" && performance.now() - savedAt >= saveEvery) {
      await store!.save();
      savedAt = performance.now();
    }
    return true;
  };
  const finish = (key: string) => {
    summary.delivered++;
    if (run.mode === "send") store!.set(key, waiting.get(key)!.record);
    waiting.delete(key);
  };

  /** The request on its way, if any: at most one at a time, in order. */
  let inFlight: Promise<boolean> | undefined;
  const enqueue = async (batch: Batch): Promise<boolean> => {
    if (inFlight && !(await inFlight)) return false;
    inFlight = deliver(batch);
    garbage.sent(batch.bytes);
    return true;
  };

  const progress = run.progress ? env.report.progress(run.mode === "send" ? "Sending sessions" : "Reading sessions") : { update() {}, end() {} };
  try {
    let done = 0;
    const attribution = new UsageAttribution();
    for (const step of steps) {
      if (step) {
        attribution.add(step);
        step.usage = NO_ROWS;
        continue;
      }
      const k = done++;
      progress.update(k, jobs.length);
      const job = jobs[k]!;
      const item = { path: job.path, size: sizes[k], mtimeMs: mtimes[k] };
      let result = await nextResult();
      // Held no longer than its turn: a giant late in the run finds the files before it let go.
      jobs[k] = undefined;
      // Its rows count for the sessions after it, whether it is exported or not.
      const copies = attributeSession(attribution, { ...usageSessionOf(item.path, result.header), usage: result.usage });
      // Its rows are counted: let them go (a giant's are megabytes, held through its second read otherwise).
      result.usage = NO_ROWS;
      if (result.header === null) {
        summary.skipped.push(item.path);
        continue;
      }
      if (headerless[k] === 1 && run.inCwd && !run.inCwd(typeof result.header.cwd === "string" ? result.header.cwd : "")) continue;
      if (result.nothingNew) {
        // Nothing new (a torn line, or a touch): remember the new size and time only.
        if (run.mode === "send") store!.set(item.path, { size: item.size, mtimeMs: item.mtimeMs, entries: job.record!.entries, lastId: job.record!.lastId });
        continue;
      }
      const parent = result.header.parentSession;
      const record = { size: item.size, mtimeMs: item.mtimeMs, entries: result.entries, lastId: result.lastId };
      if (result.index) {
        // Read again, now that its copies are known, its requests handed out as they fill.
        garbage.session(item.size);
        const inParent = typeof parent === "string" && parent !== "" ? await parentIdentities(env, result.header) : undefined;
        const w = { left: 0, open: true, record };
        waiting.set(item.path, w);
        summary.sessions++;
        const streamed = await streamSession(env.fs, { ...job, copies: copies.size > 0 ? copies : undefined, inParent }, result, options, async (chunks) => {
          for (const chunk of chunks) w.left += chunk.spans;
          summary.spans += chunks.reduce((n, chunk) => n + chunk.spans, 0);
          for (const batch of packer.add(item.path, chunks)) if (!(await enqueue(batch))) return false;
          return true;
        });
        if (!streamed) return summary;
        w.open = false;
        if (w.left === 0) finish(item.path);
        garbage.session(item.size);
        continue;
      }
      if (copies.size > 0 || (typeof parent === "string" && parent !== "") || job.usageOnly) {
        // A fork or clone: mapped again here, without what it copied. The chunks of a first
        // mapping (a copy its header did not tell) are not sent: let them go (and the first
        // read's garbage) before the second read.
        result.chunks = [];
        garbage.session(item.size);
        result = await local({ ...job, usageOnly: false, copies, inParent: await parentIdentities(env, result.header) });
      }
      summary.sessions++;
      summary.spans += result.spans;
      waiting.set(item.path, { left: result.spans, open: false, record });
      if (result.spans === 0) finish(item.path);
      for (const batch of packer.add(item.path, result.chunks)) if (!(await enqueue(batch))) return summary;
      // The garbage of a big read on this thread, before the next session adds to it.
      garbage.session();
    }
    for (const batch of packer.flush()) if (!(await enqueue(batch))) return summary;
    return summary;
  } finally {
    await inFlight;
    progress.end();
    if (run.mode === "send") await store!.save();
  }
}
