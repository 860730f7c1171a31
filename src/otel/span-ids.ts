/**
 * Trace and span ids derived from session and entry ids, so that exporting a session again
 * sends the same ids and a backend can keep one copy. Not secret, not random: a fingerprint
 * (`hashBytes` of the text's UTF-8 bytes).
 * @module
 */
import { hashBytes, hashRest, hashRestAscii, hashStart, type HashState } from "../core/digest/hash-bytes.ts";

const encoder = new TextEncoder();
/** Room for the UTF-8 bytes of an ASCII text, reused from id to id. */
let scratch = new Uint8Array(256);

/** The UTF-8 bytes of `text`: copied by hand when ASCII (nearly always), which allocates nothing. */
function utf8(text: string): Uint8Array {
  if (text.length > scratch.length) scratch = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return encoder.encode(text);
    scratch[i] = c;
  }
  return scratch.subarray(0, text.length);
}

const ZERO = "0".repeat(16);

function hex(text: string): string {
  const digits = hashBytes(utf8(text));
  // An all-zero id is invalid in OTLP; a fingerprint of zero (odds 2^-64) takes another.
  return digits === ZERO ? hashBytes(utf8(text + "\n")) : digits;
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

/** The session whose entries' ids come now (a run maps one session at a time), and its text's start. */
let current = { sessionId: "", prefix: new Uint8Array(0) };
/** The fingerprint's state after that start, by the whole text's length. */
const starts = new Map<number, HashState>();

/**
 * The span of one entry (`part` tells apart several spans of one entry, e.g. tool calls). The
 * fingerprint of the text's start, the same for all a session's entries, is made once; the rest
 * is read from the text itself when it is ASCII (nearly always).
 */
export function entrySpanIdOf(sessionId: string, entryId: string, part = ""): string {
  if (current.sessionId !== sessionId) {
    current = { sessionId, prefix: encoder.encode(`pi-session span\n${sessionId}\n`) };
    starts.clear();
  }
  const text = part === "" ? entryId + "\n" : `${entryId}\n${part}`;
  let digits = hashRestAscii(startOf(current.prefix.length + text.length), text);
  if (digits === undefined) {
    const rest = encoder.encode(text);
    digits = hashRest(startOf(current.prefix.length + rest.length), rest);
  }
  return digits === ZERO ? hex(`pi-session span\n${sessionId}\n${entryId}\n${part}`) : digits;
}

/** The fingerprint's state after the current session's start, for a text of `length` bytes in all. */
function startOf(length: number): HashState {
  let start = starts.get(length);
  if (start === undefined) starts.set(length, start = hashStart(current.prefix, length));
  return start;
}
