/**
 * Whether an entry line's bytes are exactly what `JSON.stringify(JSON.parse(line))` gives back,
 * found without making a string or an object of it; with the spans of the top-level members a
 * rewrite changes. A writer that changes a field or two of every line of a gigabyte (`fork`,
 * `clone`: each kept entry gets a new `parentId`) then splices the new values into the bytes
 * instead of parsing and stringifying each line, which made garbage faster than the collector
 * freed it. Anything this cannot vouch for (whitespace, escapes JSON.stringify would not write,
 * numbers it would write otherwise, repeated keys, keys that are array indexes and so move
 * first, `__proto__`) answers null, and the caller parses that line as before.
 * @module
 */
import type { TailScan } from "./skim-line.ts";
import { LazyStringScan } from "./string-scan.ts";

/** A member's value in the line: bytes `[start, end)`. */
export interface ValueSpan {
  start: number;
  end: number;
}

/** The top-level members of a canonical entry line that a rewrite looks at (absent: undefined). */
export interface CanonicalMembers {
  type?: ValueSpan;
  id?: ValueSpan;
  parentId?: ValueSpan;
  firstKeptEntryId?: ValueSpan;
  firstKeptEntryIndex?: ValueSpan;
  message?: ValueSpan;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Deeper lines are left to the parser (and its depth check). */
const MAX_DEPTH = 64;
/** Objects with more keys are left to the parser (repeated keys are looked for pair by pair). */
const MAX_KEYS = 64;
const NAMES = ["type", "id", "parentId", "firstKeptEntryId", "firstKeptEntryIndex", "message"] as const;

const scanner = new LazyStringScan();
const fastTail: TailScan = scanner.tail;

function isLowerHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
}

/**
 * True when the escapes in `b[from, end)` are the ones JSON.stringify writes: `\"`, `\\`, the
 * five short ones, and `\u00xx` (lower-case hex) for the other control characters.
 */
function canonicalEscapes(b: Uint8Array, from: number, end: number): boolean {
  for (let i = b.indexOf(BACKSLASH, from); i >= 0 && i < end; i = b.indexOf(BACKSLASH, i)) {
    const c = b[i + 1];
    if (c === QUOTE || c === BACKSLASH || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) {
      i += 2;
      continue;
    }
    if (c !== 0x75 || b[i + 2] !== 0x30 || b[i + 3] !== 0x30 || (b[i + 4] !== 0x30 && b[i + 4] !== 0x31) || !isLowerHex(b[i + 5])) return false;
    const code = (b[i + 4] - 0x30) * 16 + (b[i + 5] <= 0x39 ? b[i + 5] - 0x30 : b[i + 5] - 0x57);
    if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return false;
    i += 6;
  }
  return true;
}

const decoder = new TextDecoder();

/** The end of the number at `i` when it is written as JSON.stringify writes it, else -1. */
function canonicalNumber(b: Uint8Array, i: number): number {
  let j = i;
  let plain = true;
  while (j < b.length) {
    const c = b[j];
    if (c >= 0x30 && c <= 0x39) j++;
    else if (c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) {
      plain = plain && c === 0x2d && j === i;
      j++;
    } else break;
  }
  const digits = j - i - (b[i] === 0x2d ? 1 : 0);
  const first = b[j - digits];
  // A small integer without a leading zero (and not -0) is written back as it is.
  if (plain && digits > 0 && digits <= 15 && (first !== 0x30 || (digits === 1 && b[i] !== 0x2d))) return j;
  const text = decoder.decode(b.subarray(i, j));
  return String(Number(text)) === text ? j : -1;
}

function literalEnd(b: Uint8Array, i: number, word: string): number {
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return -1;
  return i + word.length;
}

function sameBytes(b: Uint8Array, s1: number, e1: number, s2: number, e2: number): boolean {
  if (e1 - s1 !== e2 - s2) return false;
  for (let k = 0; k < e1 - s1; k++) if (b[s1 + k] !== b[s2 + k]) return false;
  return true;
}

const PROTO = new TextEncoder().encode('"__proto__"');

/** A key JSON.parse would not keep in its place (an array index moves first) or not as a plain member. */
function movableKey(b: Uint8Array, start: number, end: number): boolean {
  // Digits without a leading zero (the longest ones are no index, and refused all the same).
  let digits = end - start > 2 && (b[start + 1] !== 0x30 || end - start === 3);
  for (let k = start + 1; k < end - 1 && digits; k++) digits = b[k] >= 0x30 && b[k] <= 0x39;
  if (digits) return true;
  if (end - start !== PROTO.length) return false;
  for (let k = 0; k < PROTO.length; k++) if (b[start + k] !== PROTO[k]) return false;
  return true;
}

/** One pass over a line, with the keys of the open objects kept to find repeats. */
class Scan {
  readonly b: Uint8Array;
  readonly tail: TailScan;
  readonly members: CanonicalMembers = {};
  /** Key spans of the objects open now, outermost first. */
  #keys: number[] = [];

  constructor(b: Uint8Array, tail: TailScan) {
    this.b = b;
    this.tail = tail;
  }

  /** The end of the string at `i` when canonical, else -1. */
  string(i: number): number {
    const { end, clean } = this.tail(this.b, i + 1);
    if (end < 0 || !clean || !canonicalEscapes(this.b, i + 1, end)) return -1;
    return end + 1;
  }

  value(i: number, depth: number): number {
    const c = this.b[i];
    if (c === QUOTE) return this.string(i);
    if (c === 0x7b) return depth >= MAX_DEPTH ? -1 : this.object(i, depth + 1);
    if (c === 0x5b) return depth >= MAX_DEPTH ? -1 : this.array(i, depth + 1);
    if (c === 0x74) return literalEnd(this.b, i, "true");
    if (c === 0x66) return literalEnd(this.b, i, "false");
    if (c === 0x6e) return literalEnd(this.b, i, "null");
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return canonicalNumber(this.b, i);
    return -1;
  }

  array(i: number, depth: number): number {
    const b = this.b;
    i++;
    if (b[i] === 0x5d) return i + 1;
    for (;;) {
      i = this.value(i, depth);
      if (i < 0) return -1;
      if (b[i] === 0x5d) return i + 1;
      if (b[i] !== 0x2c) return -1;
      i++;
    }
  }

  object(i: number, depth: number): number {
    const b = this.b;
    const keys = this.#keys;
    const base = keys.length;
    i++;
    if (b[i] === 0x7d) return i + 1;
    for (;;) {
      if (b[i] !== QUOTE) return -1;
      const keyEnd = this.string(i);
      if (keyEnd < 0 || b[keyEnd] !== 0x3a || movableKey(b, i, keyEnd)) return -1;
      for (let k = base; k < keys.length; k += 2) if (sameBytes(b, keys[k], keys[k + 1], i, keyEnd)) return -1;
      if (keys.length - base >= 2 * MAX_KEYS) return -1;
      keys.push(i, keyEnd);
      const valueStart = keyEnd + 1;
      const valueEnd = this.value(valueStart, depth);
      if (valueEnd < 0) return -1;
      if (depth === 1) this.#note(i, keyEnd, valueStart, valueEnd);
      i = valueEnd;
      if (b[i] === 0x7d) {
        keys.length = base;
        return i + 1;
      }
      if (b[i] !== 0x2c) return -1;
      i++;
    }
  }

  #note(keyStart: number, keyEnd: number, start: number, end: number): void {
    for (const name of NAMES) {
      if (keyEnd - keyStart - 2 !== name.length) continue;
      let same = true;
      for (let k = 0; k < name.length && same; k++) same = this.b[keyStart + 1 + k] === name.charCodeAt(k);
      if (same) this.members[name] = { start, end };
    }
  }
}

/**
 * The members of `b` (a line without its line break) when `b` is an object written exactly as
 * JSON.stringify writes what JSON.parse reads of it; null when it may not be. `tail`: how the
 * rest of a string is scanned (tests pass the byte loop).
 *
 * @example
 * ```ts
 * const line = new TextEncoder().encode('{"type":"custom","id":"a","parentId":null}');
 * canonicalLine(line)?.parentId; // { start: 37, end: 41 }
 * canonicalLine(new TextEncoder().encode('{"id": "a"}')); // null: a space JSON.stringify does not write
 * ```
 */
export function canonicalLine(b: Uint8Array, tail: TailScan = fastTail): CanonicalMembers | null {
  if (tail === fastTail) scanner.reset();
  if (b[0] !== 0x7b) return null;
  const scan = new Scan(b, tail);
  const end = scan.object(0, 1);
  return end === b.length ? scan.members : null;
}

/** Where a rewrite's output goes: text, and bytes copied as they are. */
export interface LineSink {
  add(text: string): void;
  addBytes(bytes: Uint8Array): void;
}

const NEWLINE = new Uint8Array([0x0a]);

/**
 * Writes a canonical line (`canonicalLine` vouched for it) to `out` as `JSON.stringify` would
 * write the object with some members changed: the values at `changes` replaced by their new JSON,
 * `added` (`,"key":value`…, members the object gained, which stringify puts last) before its
 * closing brace, then a newline. The rest of the line is copied, never made a string.
 */
export function spliceLine(out: LineSink, line: Uint8Array, changes: [ValueSpan, string][], added: string): void {
  changes.sort(([a], [b]) => a.start - b.start);
  let at = 0;
  for (const [span, text] of changes) {
    out.addBytes(line.subarray(at, span.start));
    out.add(text);
    at = span.end;
  }
  if (added !== "") {
    out.addBytes(line.subarray(at, line.length - 1));
    out.add(added + "}");
  } else out.addBytes(line.subarray(at));
  out.addBytes(NEWLINE);
}
