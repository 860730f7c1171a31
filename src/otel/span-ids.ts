/**
 * Trace and span ids derived from session and entry ids, so that exporting a session again
 * sends the same ids and a backend can keep one copy. Not secret, not random: a fingerprint.
 * @module
 */
import { hashBytes } from "../core/digest/hash-bytes.ts";

const encoder = new TextEncoder();

function hex(text: string): string {
  const digits = hashBytes(encoder.encode(text));
  // An all-zero id is invalid in OTLP; a fingerprint of zero (odds 2^-64) takes another.
  return /^0+$/.test(digits) ? hashBytes(encoder.encode(text + "\n")) : digits;
}

/**
 * The trace of a session: 32 hex digits from its id.
 *
 * @example
 * ```ts
 * traceIdOf("0197…") === traceIdOf("0197…"); // true, run after run
 * ```
 */
export function traceIdOf(sessionId: string): string {
  return hex(`pi-session trace 1\n${sessionId}`) + hex(`pi-session trace 2\n${sessionId}`);
}

/** The root span of a session's trace. */
export function rootSpanIdOf(sessionId: string): string {
  return hex(`pi-session root\n${sessionId}`);
}

/** The span of one entry (`part` tells apart several spans of one entry, e.g. tool calls). */
export function entrySpanIdOf(sessionId: string, entryId: string, part = ""): string {
  return hex(`pi-session span\n${sessionId}\n${entryId}\n${part}`);
}
