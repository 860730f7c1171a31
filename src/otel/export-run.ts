/**
 * The run of `otel`: which session files have something new for this receiver, their new
 * entries as spans (copies from a parent left out), cut into bounded requests and sent one after
 * the other (or written as OTLP/JSON lines, or only counted), the next sessions read while a
 * request is on its way; what the receiver accepted is remembered, a failed request stops the
 * run and leaves its sessions to the next one. Each file with something new is read once: its
 * usage rows are attributed as it is read (sessions in attribution order), and only the other
 * sessions' usage comes from the catalog.
 * @module
 */
import { headerVersion } from "../core/migrate/migrate-session.ts";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "../core/format/types.ts";
import { emptyUsageState } from "../core/digest/usage-state.ts";
import type { Redactor } from "../core/redact/redactor.ts";
import { attributionOrder, UsageAttribution, type UsageSession } from "../core/stats/attribution.ts";
import { normalizePath } from "../core/storage/paths.ts";
import { defaultCacheDir } from "../catalog/open-catalog.ts";
import type { QueryEnv } from "../query/env.ts";
import { sessionScope } from "../query/scope.ts";
import { type Batch, Batcher } from "./batches.ts";
import { attributeSession, catalogUsage, copiedEntries, parentIdentities } from "./copies.ts";
import type { OtlpConfig } from "./otlp-config.ts";
import { otlpEncoder, type PartialSuccess } from "./otlp-encode.ts";
import { sendRequest, type SendResult } from "./otlp-send.ts";
import { type SentRecord, SentStore } from "./sent-store.ts";
import { sessionSpans } from "./session-spans.ts";
import { readHeader, readSpanSource } from "./span-entries.ts";

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
  /** Retry tuning (tests shorten the waits). */
  baseDelayMs?: number;
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

/** Requests between two saves of the sent-store. */
const SAVE_EVERY = 50;

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
type Attributed = UsageSession & { changed?: Changed };

/**
 * Every session in attribution order, the files to export among them: those the run reads
 * itself have their usage filled in as they are read; the others' usage comes from the catalog
 * (all of every project's sessions take part: copies are recognised across projects).
 */
async function attributionPlan(env: QueryEnv, changed: readonly Changed[]): Promise<Attributed[]> {
  const own = new Set(changed.map((c) => normalizePath(c.path)));
  const every = await sessionScope(env, true);
  const others = every.files.filter((path) => !own.has(normalizePath(path)));
  const sessions: Attributed[] = await catalogUsage(env, others);
  for (const c of changed) {
    const header: Record<string, unknown> = c.header ?? {};
    sessions.push({
      path: c.path,
      id: typeof header.id === "string" ? header.id : String(header.id ?? ""),
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      created: typeof header.timestamp === "string" ? header.timestamp : "",
      parentSession: typeof header.parentSession === "string" ? header.parentSession : undefined,
      usage: emptyUsageState(),
      changed: c,
    });
  }
  return attributionOrder(sessions);
}

/** Runs an export; the caller reports the summary. */
export async function runOtelExport(env: QueryEnv, run: OtelRun): Promise<OtelSummary> {
  const summary: OtelSummary = { sessions: 0, spans: 0, requests: 0, delivered: 0, rejectedSpans: 0, partial: [], skipped: [] };
  const store = run.mode === "out" ? undefined : await SentStore.open(env.fs, defaultCacheDir(env.storage), run.config.endpoint);
  const candidates: Omit<Changed, "header">[] = [];
  for (const path of [...run.files].sort()) {
    const stat = await env.fs.stat(path);
    if (stat === null || !stat.isFile) continue;
    const record = run.resend ? undefined : store?.get(path);
    if (record && record.size === stat.size && record.mtimeMs === stat.mtimeMs) continue;
    candidates.push({ path, size: stat.size, mtimeMs: stat.mtimeMs, record });
  }
  if (candidates.length === 0) return summary;
  const changed: Changed[] = [];
  for (const item of candidates) {
    const header = await readHeader(env.fs, item.path);
    if (header && run.inCwd && !run.inCwd(typeof header.cwd === "string" ? header.cwd : "")) continue;
    changed.push({ ...item, header });
  }
  const plan = await attributionPlan(env, changed);

  const encode = otlpEncoder(run.mode === "out" ? "http/json" : run.config.protocol, run.config.resource);
  const batcher = new Batcher(encode);
  /** Spans of each session not yet accepted, and the record to keep once none are left. */
  const waiting = new Map<string, { left: number; record: SentRecord }>();
  if (run.mode === "out" && !run.write) await env.fs.writeAtomic(run.out!, new Uint8Array(0));

  const deliver = async (batch: Batch): Promise<boolean> => {
    summary.requests++;
    if (run.mode === "send") {
      const result = await sendRequest({
        ...run.config,
        baseDelayMs: run.baseDelayMs,
        onRetry: (n, reason, delay) => env.report.note(`pi-session: request ${summary.requests} failed (${reason}); retry ${n} in ${Math.round(delay / 100) / 10} s`),
      }, batch.body);
      if (!result.ok) {
        summary.failure = result;
        return false;
      }
      if (result.partial) {
        summary.partial.push(result.partial);
        summary.rejectedSpans += result.partial.rejectedSpans;
      }
    } else if (run.mode === "out") {
      const line = new TextDecoder().decode(batch.body) + "\n";
      if (run.write) run.write(line);
      else await env.fs.append(run.out!, new TextEncoder().encode(line));
    }
    for (const [key, n] of batch.sessions) {
      const w = waiting.get(key)!;
      w.left -= n;
      if (w.left === 0) finish(key);
    }
    // Now and then, so that a run cut short (Ctrl-C, a reboot) does not send it all again.
    if (run.mode === "send" && summary.requests % SAVE_EVERY === 0) await store!.save();
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
    return true;
  };

  const progress = run.progress ? env.report.progress(run.mode === "send" ? "Sending sessions" : "Reading sessions") : { update() {}, end() {} };
  try {
    let done = 0;
    const attribution = new UsageAttribution();
    for (const session of plan) {
      const item = session.changed;
      if (!item) {
        attribution.add(session);
        session.usage = emptyUsageState();
        continue;
      }
      progress.update(done++, changed.length);
      const walk = !run.content && item.header !== null && headerVersion(item.header) >= CURRENT_SESSION_VERSION;
      const file = await readSpanSource(env.fs.read(item.path, { reuseBuffer: true }), walk);
      session.usage = file.usage;
      // Its rows count for the sessions after it, whether it is exported or not.
      const copies = attributeSession(attribution, session);
      session.usage = emptyUsageState();
      if (file.header === null) {
        summary.skipped.push(item.path);
        continue;
      }
      if (item.header === null && run.inCwd && !run.inCwd(typeof file.header.cwd === "string" ? file.header.cwd : "")) continue;
      // The reader leaves out a torn last line (a session being written): it is sent once complete.
      const entries = file.entries;
      const { record } = item;
      const resumes = record !== undefined && record.entries <= entries.length && (record.entries === 0 ? record.lastId === null : entries[record.entries - 1]?.id === record.lastId);
      const from = resumes ? record.entries : 0;
      if (from === entries.length && record) {
        // Nothing new (a torn line, or a touch): remember the new size and time only.
        if (run.mode === "send") store!.set(item.path, { ...record, size: item.size, mtimeMs: item.mtimeMs });
        continue;
      }
      const copied = copiedEntries(entries, copies, await parentIdentities(env, file.header));
      const spans = sessionSpans({ header: file.header, entries, from, copied, wanted: run.wanted, redactor: run.redactor, content: run.content });
      summary.sessions++;
      summary.spans += spans.length;
      const last = entries.at(-1);
      waiting.set(item.path, { left: spans.length, record: { size: item.size, mtimeMs: item.mtimeMs, entries: entries.length, lastId: last ? String(last.id) : null } });
      if (spans.length === 0) finish(item.path);
      for (const batch of batcher.add(item.path, spans)) if (!(await enqueue(batch))) return summary;
    }
    for (const batch of batcher.flush()) if (!(await enqueue(batch))) return summary;
    return summary;
  } finally {
    await inFlight;
    progress.end();
    if (run.mode === "send") await store!.save();
  }
}
