/**
 * Sending one OTLP/HTTP request: gzip, a timeout per attempt, and retries with exponential
 * backoff on 429, 502, 503, 504 and network errors (a `Retry-After` the receiver sends wins).
 * `fetch` and `node:zlib` (gzip at level 1: `CompressionStream` has no level and cost the run
 * more than the encoding), the same on Node, Deno and Bun: on the thread pool on Node and Deno;
 * in one blocking call on Bun, whose asynchronous gzip spent half again as much CPU in all (its
 * stream around the thread pool's work), and there `Bun.gzipSync`, the same zlib without the
 * stream objects `node:zlib`'s blocking call still builds per request (120 MB of session bytes
 * in 120 bodies at level 1: 309-322 ms of CPU against 356-358, the same bytes out).
 * @module
 */
import type { OtlpCompression, OtlpProtocol } from "./otlp-config.ts";
import { type PartialSuccess, partialSuccessOf } from "./otlp-encode.ts";

export interface SendOptions {
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Gzip (the default) or none. */
  compression?: OtlpCompression;
  /** Tries in all (default 5). */
  attempts?: number;
  /** First backoff (default 1 s), doubled per retry up to `maxDelayMs` (default 30 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Told before each wait: which attempt failed and why. */
  onRetry?: (attempt: number, reason: string, delayMs: number) => void;
}

/** How a request ended. `network` covers refused connections, resets and timeouts. */
export type SendResult =
  | { ok: true; partial?: PartialSuccess; attempts: number }
  | { ok: false; kind: "http" | "network"; status?: number; message: string; attempts: number };

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** The longest `Retry-After` honoured; a longer one is cut to this. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Bun's own blocking gzip, where there is one. */
const bunGzip = (globalThis as { Bun?: { gzipSync?: (data: Uint8Array, options: { level: 1 }) => Uint8Array } }).Bun?.gzipSync;

/** Where a blocking gzip costs less than the asynchronous one (see the module comment). */
const GZIP_SYNC = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

/**
 * `node:zlib`, loaded on first use: Bun gzips without it, and loading it there costs 80-130 ms
 * and 650 page faults in a compiled binary that does nothing else (Bun 1.4.5; in a whole `otel`
 * run less, the modules it shares with others being loaded anyway).
 */
let nodeZlib: Promise<typeof import("node:zlib")> | undefined;

/**
 * `body` gzipped (level 1: a third larger than level 6, six times faster). Blocking (`sync`):
 * done before this returns, with `Bun.gzipSync` where there is one.
 */
export async function gzip(body: Uint8Array, sync = GZIP_SYNC): Promise<Uint8Array> {
  if (sync && bunGzip) return bunGzip(body, { level: 1 });
  const zlib = await (nodeZlib ??= import("node:zlib"));
  const bytes = (out: Uint8Array) => new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  if (sync) return bytes(zlib.gzipSync(body, { level: 1 }));
  return await new Promise((resolve, reject) => zlib.gzip(body, { level: 1 }, (error, out) => error ? reject(error) : resolve(bytes(out))));
}

/** A `Retry-After` header (seconds or an HTTP date) in milliseconds from `now`, or undefined. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const text = value.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

function describeNetworkError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code;
  const text = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}

class TimedOut extends Error {}

/** One attempt: the status and body, or a thrown network error / timeout. */
async function attempt(options: SendOptions, body: Uint8Array): Promise<{ status: number; retryAfter: string | null; body: Uint8Array; statusText: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(options.endpoint, {
      method: "POST",
      headers: {
        ...options.headers,
        "Content-Type": options.protocol === "http/json" ? "application/json" : "application/x-protobuf",
        ...(options.compression === "none" ? {} : { "Content-Encoding": "gzip" }),
      },
      body: body as BodyInit,
      signal: controller.signal,
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: bytes, statusText: response.statusText };
  } catch (error) {
    throw controller.signal.aborted ? new TimedOut() : error;
  } finally {
    clearTimeout(timer);
  }
}

/** A short excerpt of an error response body (receivers explain refusals there). */
function bodyExcerpt(body: Uint8Array): string {
  const text = new TextDecoder().decode(body.subarray(0, 300)).replace(/[\x00-\x1f\x7f]+/g, " ").trim();
  return text === "" ? "" : `: ${text}`;
}

/**
 * Sends one encoded request (`body` not yet gzipped), retrying what may pass later. Without
 * compression `body` is sent as it is, so it must hold until this is done.
 */
export async function sendRequest(options: SendOptions, body: Uint8Array): Promise<SendResult> {
  const attempts = options.attempts ?? 5;
  const base = options.baseDelayMs ?? 1000;
  const max = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const zipped = options.compression === "none" ? body : await gzip(body);
  for (let n = 1; ; n++) {
    let failure: SendResult & { ok: false };
    let wait: number | undefined;
    try {
      const response = await attempt(options, zipped);
      if (response.status >= 200 && response.status < 300) {
        return { ok: true, partial: partialSuccessOf(options.protocol, response.body), attempts: n };
      }
      const message = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${bodyExcerpt(response.body)}`;
      failure = { ok: false, kind: "http", status: response.status, message, attempts: n };
      if (!RETRY_STATUSES.has(response.status)) return failure;
      wait = retryAfterMs(response.retryAfter, Date.now());
    } catch (error) {
      failure = { ok: false, kind: "network", message: describeNetworkError(error, error instanceof TimedOut, options.timeoutMs), attempts: n };
    }
    if (n >= attempts) return failure;
    const delay = wait ?? Math.min(base * 2 ** (n - 1), max);
    options.onRetry?.(n, failure.message, delay);
    await sleep(delay);
  }
}
