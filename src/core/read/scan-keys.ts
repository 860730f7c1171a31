/**
 * Reads the four linking fields of an entry line (type, id, parentId, timestamp) straight
 * from its bytes, skipping everything else unparsed. This is what lets the fast context
 * reader touch each byte once instead of JSON-parsing 90 MB of tool output it never uses.
 * @module
 */

/** The linking fields of one entry; `undefined` where a field is absent or not a string. */
export interface EntryKeys {
  type?: string;
  id?: string;
  parentId?: string | null;
  timestamp?: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const decoder = new TextDecoder();

/** Index of the first non-whitespace byte at or after `i`. */
export function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
  return i;
}

/** Index just past the closing quote of the string opening at `i`, or -1. */
export function stringEnd(b: Uint8Array, i: number): number {
  let at = i + 1;
  for (;;) {
    const quote = b.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let k = quote - 1; k > i && b[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** Index just past the value starting at `i`, or -1. */
export function valueEnd(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    while (i < b.length) {
      const d = b[i];
      if (d === QUOTE) {
        i = stringEnd(b, i);
        if (i < 0) return -1;
        continue;
      }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  while (i < b.length) {
    const d = b[i];
    if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0d) return i;
    i++;
  }
  return i;
}

function readString(b: Uint8Array, start: number, end: number): string {
  // Plain ASCII without escapes is the norm for ids and timestamps: decoded as it is, which is
  // faster than concatenating characters one by one, and allocates just the string.
  for (let k = start + 1; k < end - 1; k++) {
    if (b[k] === BACKSLASH || b[k] >= 0x80) return JSON.parse(decoder.decode(b.subarray(start, end)));
  }
  return decoder.decode(b.subarray(start + 1, end - 1));
}

/**
 * Visits the members of the JSON object starting at `i` without parsing their values:
 * `visit(keyStart, keyEnd, valueStart, valueEnd)` gets byte spans (keys with their quotes)
 * and returns true to stop early. Returns false when the bytes are not a well-formed object
 * as far as the scan went.
 */
export function scanObject(
  b: Uint8Array,
  i: number,
  visit: (keyStart: number, keyEnd: number, valueStart: number, valueEnd: number) => boolean,
): boolean {
  i = skipSpace(b, i);
  if (b[i] !== 0x7b) return false;
  i = skipSpace(b, i + 1);
  if (b[i] === 0x7d) return true;
  while (i < b.length) {
    if (b[i] !== QUOTE) return false;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return false;
    const keyStart = i;
    i = skipSpace(b, keyEnd);
    if (b[i] !== 0x3a) return false;
    i = skipSpace(b, i + 1);
    const end = valueEnd(b, i);
    if (end < 0 || end === i) return false;
    if (visit(keyStart, keyEnd, i, end)) return true;
    i = skipSpace(b, end);
    if (b[i] === 0x2c) {
      i = skipSpace(b, i + 1);
      continue;
    }
    return b[i] === 0x7d;
  }
  return false;
}

/** True when the key span `[start, end)` (quotes included) spells `name`. */
export function keyIs(b: Uint8Array, start: number, end: number, name: string): boolean {
  if (end - start - 2 !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (b[start + 1 + k] !== name.charCodeAt(k)) return false;
  return true;
}

/** The value in `[start, end)` as a string, or undefined when it is not a JSON string. */
export function stringValue(b: Uint8Array, start: number, end: number): string | undefined {
  return b[start] === QUOTE ? readString(b, start, end) : undefined;
}

/** The value in `[start, end)` as a number, or undefined when it is not a JSON number. */
export function numberValue(b: Uint8Array, start: number, end: number): number | undefined {
  const c = b[start];
  if (c !== 0x2d && (c < 0x30 || c > 0x39)) return undefined;
  const n = Number(decoder.decode(b.subarray(start, end)));
  return Number.isNaN(n) ? undefined : n;
}

/** True when the value in `[start, end)` is the literal null. */
export function isNullValue(b: Uint8Array, start: number, end: number): boolean {
  return end - start === 4 && b[start] === 0x6e;
}

const WANTED = ["type", "id", "parentId", "timestamp"] as const;

/**
 * The linking fields of a JSON object line, or `null` when the line is not a well-formed
 * object as far as the scan went (the caller then parses it fully to report why).
 *
 * @example
 * ```ts
 * scanEntryKeys(new TextEncoder().encode('{"type":"label","id":"a","parentId":null,"timestamp":"t"}'));
 * // { type: "label", id: "a", parentId: null, timestamp: "t" }
 * ```
 */
export function scanEntryKeys(b: Uint8Array): EntryKeys | null {
  const keys: EntryKeys = {};
  let found = 0;
  const ok = scanObject(b, 0, (ks, ke, vs, ve) => {
    const wanted = WANTED.find((name) => keyIs(b, ks, ke, name));
    if (!wanted) return false;
    if (b[vs] === QUOTE) keys[wanted] = readString(b, vs, ve);
    else if (wanted === "parentId" && isNullValue(b, vs, ve)) keys.parentId = null;
    return ++found === WANTED.length;
  });
  return ok ? keys : null;
}
