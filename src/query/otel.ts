/**
 * The `otel` query: sessions as OpenTelemetry GenAI traces, sent to an OTLP/HTTP receiver (or
 * written as OTLP/JSON, or only counted); the value is what `otel --json` prints. Not exported
 * from `mod.ts`: it loads the OpenTelemetry packages, which only this query needs.
 * @module
 */
import { availableParallelism } from "node:os";
import { Redactor } from "../core/redact/redactor.ts";
import { detectFileSystem } from "../io/mod.ts";
import { onOrAfter } from "../core/stats/date-bound.ts";
import { resolvePath } from "../core/storage/paths.ts";
import { runOtelExport } from "../otel/export-run.ts";
import { OtlpConfigError, resolveOtlpConfig } from "../otel/otlp-config.ts";
import type { SendResult } from "../otel/otlp-send.ts";
import { dateOption } from "./date-options.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { resolveSessionRef } from "./resolve/session-ref.ts";
import { sessionScope } from "./scope.ts";

export interface OtelOptions {
  /** Session references; none: this directory's sessions (or every one with `all`). */
  refs?: string[];
  all?: boolean;
  /** Only entries from this time on (`--since`). */
  since?: string;
  endpoint?: string;
  protocol?: string;
  headers?: string;
  /** Milliseconds per request, as text or number. */
  timeout?: string | number;
  /** "gzip" (default) or "none". */
  compression?: string;
  content?: boolean;
  resend?: boolean;
  dryRun?: boolean;
  /** Write OTLP/JSON lines to this file instead of sending ("-" with `write` for a stream). */
  out?: string;
  /** Where `out: "-"` goes (the CLI: stdout). */
  write?: (line: string) => void;
  /** Report progress through `env.report.progress` (the CLI: on a terminal). */
  progress?: boolean;
}

/** What `otel --json` prints (docs/schema/otel.schema.json), without `schemaVersion`. */
export interface OtelJson {
  destination: string;
  dryRun: boolean;
  sessions: number;
  spans: number;
  requests: number;
  delivered: number;
  rejectedSpans: number;
  failure: { kind: "http" | "network"; status: number | null; message: string; attempts: number } | null;
}

export interface OtelResult {
  value: OtelJson;
  /** Each partial success the receiver answered. */
  partial: { rejectedSpans: number; errorMessage: string }[];
  /** Files in scope that are not sessions. */
  skipped: string[];
  /** The traces URL the run used (also for `--out` and `--dry-run`). */
  endpoint: string;
  mode: "send" | "out" | "dry-run";
}

async function scopeFiles(env: QueryEnv, refs: string[], all: boolean): Promise<{ files: string[]; cwd?: string }> {
  if (refs.length > 0 && all) {
    throw new QueryError("bad-option", "Pass session references or --all, not both", "Drop --all to export the sessions named, or the references to export every project");
  }
  if (refs.length === 0) {
    const scope = await sessionScope(env, all);
    return { files: scope.files, cwd: scope.cwdFilter === undefined ? undefined : resolvePath(env.storage.processCwd, scope.cwdFilter) };
  }
  const paths: string[] = [];
  for (const ref of refs) paths.push(await resolveSessionRef(env, ref));
  return { files: [...new Set(paths)] };
}

/** Most worker threads a run starts: past two, what the main thread does (attribution, gzip, sending) limits the run. */
const MAX_WORKERS = 2;

/**
 * Cores a run leaves to its main thread and to the engine's compiler threads before it starts a
 * worker. A worker compiles the hot code (the walk, the spans, OpenTelemetry's serializer) again
 * in its own engine, and on two cores that compiling takes the core the worker was to use: the
 * bench's 2,400 sessions took 0.4-0.6 s more CPU with the worker than without, 15-25% more page
 * faults and 10-15 MB more memory (the compiled binary, 3 interleaved rounds, load 7-9).
 */
const CORES_BESIDE_WORKERS = 2;

/**
 * The worker threads a run starts by default on `cores` cores: one per core past
 * `CORES_BESIDE_WORKERS`, up to `MAX_WORKERS` (none on two cores or fewer).
 *
 * @example
 * ```ts
 * defaultOtelWorkers(2); // 0
 * defaultOtelWorkers(8); // 2
 * ```
 */
export function defaultOtelWorkers(cores: number): number {
  return Math.max(0, Math.min(MAX_WORKERS, cores - CORES_BESIDE_WORKERS));
}

/**
 * Worker threads for a run: `defaultOtelWorkers` of this machine's cores, over the runtime's own
 * file system only (a worker reads through it), for a run with enough to read.
 * `PI_SESSION_OTEL_WORKERS` sets the number (0: none), whatever the run.
 */
function otelWorkers(env: QueryEnv): { workers: number; poolMinBytes?: number } {
  if (env.fs !== detectFileSystem()) return { workers: 0 };
  const given = env.storage.env("PI_SESSION_OTEL_WORKERS");
  if (given !== undefined && given.trim() !== "" && Number.isInteger(Number(given))) return { workers: Math.max(0, Number(given)), poolMinBytes: 0 };
  return { workers: defaultOtelWorkers(availableParallelism()) };
}

/**
 * The size from which a session file is read twice and its requests streamed
 * (`PI_SESSION_OTEL_STREAM_BYTES`, e.g. 0 for every file; default `STREAM_MIN_BYTES`).
 */
function streamMinBytes(env: QueryEnv): number | undefined {
  const given = env.storage.env("PI_SESSION_OTEL_STREAM_BYTES");
  return given !== undefined && given.trim() !== "" && Number.isInteger(Number(given)) ? Math.max(0, Number(given)) : undefined;
}

/**
 * Exports the sessions in scope: each entry a receiver has not accepted yet, once (copies in
 * forks and clones left out), with ids derived from session and entry ids.
 */
export async function otelExport(env: QueryEnv, options: OtelOptions): Promise<OtelResult> {
  let config;
  try {
    config = resolveOtlpConfig(
      { endpoint: options.endpoint, protocol: options.protocol, headers: options.headers, timeout: options.timeout === undefined ? undefined : String(options.timeout), compression: options.compression },
      env.storage.env,
    );
  } catch (error) {
    if (!(error instanceof OtlpConfigError)) throw error;
    throw new QueryError("bad-option", error.message, "See `pi-session otel --help` for the accepted values");
  }
  const since = dateOption(env, "since", options.since);
  if (options.out !== undefined && options.dryRun) {
    throw new QueryError("bad-option", "Pass --out or --dry-run, not both", "--dry-run only counts; --out writes the requests to a file");
  }
  const mode = options.out !== undefined ? "out" : options.dryRun ? "dry-run" : "send";
  const { files, cwd } = await scopeFiles(env, options.refs ?? [], Boolean(options.all));
  const backoffText = env.storage.env("PI_SESSION_OTEL_BACKOFF_MS");
  const backoff = Number(backoffText);
  const saveText = env.storage.env("PI_SESSION_OTEL_SAVE_MS");
  const saveEvery = Number(saveText);
  const summary = await runOtelExport(env, {
    ...otelWorkers(env),
    streamMinBytes: streamMinBytes(env),
    files,
    inCwd: cwd === undefined ? undefined : (headerCwd) => headerCwd !== "" && resolvePath(env.storage.processCwd, headerCwd) === cwd,
    config,
    mode,
    out: options.out,
    write: options.out === "-" ? options.write : undefined,
    resend: Boolean(options.resend),
    progress: Boolean(options.progress),
    content: Boolean(options.content),
    redactor: new Redactor(),
    wanted: since && ((ms) => onOrAfter(since, ms, new Date(ms).toISOString().slice(0, 10))),
    baseDelayMs: backoffText && Number.isFinite(backoff) && backoff >= 0 ? backoff : undefined,
    saveEveryMs: saveText && Number.isFinite(saveEvery) && saveEvery >= 0 ? saveEvery : undefined,
  });
  const failure = summary.failure as (SendResult & { ok: false }) | undefined;
  return {
    value: {
      destination: mode === "out" ? (options.out === "-" ? "stdout" : options.out!) : config.endpoint,
      dryRun: mode === "dry-run",
      sessions: summary.sessions,
      spans: summary.spans,
      requests: summary.requests,
      delivered: summary.delivered,
      rejectedSpans: summary.rejectedSpans,
      failure: failure ? { kind: failure.kind, status: failure.status ?? null, message: failure.message, attempts: failure.attempts } : null,
    },
    partial: summary.partial,
    skipped: summary.skipped,
    endpoint: config.endpoint,
    mode,
  };
}
