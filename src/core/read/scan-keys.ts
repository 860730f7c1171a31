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

/** Bytes looked at one by one before a search is handed to `indexOf`, whose call costs more than a short string. */
const SHORT = 48;

/**
 * Index of the first `byte` at or after `from`, or -1: a plain loop over the first bytes (keys,
 * ids and timestamps end there), then the array's own `indexOf` (a Buffer's is a native scan).
 */
export function indexOfByte(b: Uint8Array, byte: number, from: number): number {
  const stop = Math.min(b.length, from + SHORT);
  for (let k = from; k < stop; k++) if (b[k] === byte) return k;
  return stop < b.length ? b.indexOf(byte, stop) : -1;
}

/** Index just past the closing quote of the string opening at `i`, or -1. */
export function stringEnd(b: Uint8Array, i: number): number {
  let at = i + 1;
  for (;;) {
    const quote = indexOfByte(b, QUOTE, at);
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
  // Plain ASCII without escapes is the norm for ids and timestamps: made from the bytes as they
  // are, which costs less than a decoder's call and allocates just the string.
  for (let k = start + 1; k < end - 1; k++) {
    if (b[k] === BACKSLASH || b[k] >= 0x80) return JSON.parse(decoder.decode(b.subarray(start, end)));
  }
  return asciiText(b, start + 1, end - 1);
}

/** Code units of a short string being made, reused from call to call. */
const codes: number[] = [];

/** The ASCII bytes `[start, end)` as a string. */
function asciiText(b: Uint8Array, start: number, end: number): string {
  // A lone quote (a line cut inside a string) spells no characters, as an empty slice decodes.
  if (end <= start) return "";
  if (end - start > 64) return decoder.decode(b.subarray(start, end));
  codes.length = end - start;
  for (let k = start; k < end; k++) codes[k - start] = b[k];
  return String.fromCharCode.apply(null, codes);
}

/** `readString`, or `last` itself when the value spells it (the type of most lines, an id its successor names). */
function readStringLike(b: Uint8Array, start: number, end: number, last: string | undefined): string {
  if (last !== undefined && last.length === end - start - 2) {
    let k = 0;
    for (; k < last.length; k++) {
      const c = b[start + 1 + k];
      if (c >= 0x80 || c === BACKSLASH || c !== last.charCodeAt(k)) break;
    }
    if (k === last.length) return last;
  }
  return readString(b, start, end);
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

/** The last strings `scanEntryKeys` read, given back when the next line spells the same. */
const last: { type?: string; id?: string; timestamp?: string } = {};

/**
 * The linking fields of a JSON object line, or `null` when the line is not a well-formed
 * object as far as the scan went (the caller then parses it fully to report why).
 * Walks the members as `scanObject` does, without a callback per member, and stops once the
 * four fields were seen.
 *
 * @example
 * ```ts
 * scanEntryKeys(new TextEncoder().encode('{"type":"label","id":"a","parentId":null,"timestamp":"t"}'));
 * // { type: "label", id: "a", parentId: null, timestamp: "t" }
 * ```
 */
export function scanEntryKeys(b: Uint8Array): EntryKeys | null {
  return scanCanonical(b) ?? scanMembers(b);
}

const asCodes = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const TYPE_OPEN = asCodes('{"type":"');
const ID_OPEN = asCodes('","id":"');
const PARENT_OPEN = asCodes('","parentId":');
const TIMESTAMP_OPEN = asCodes(',"timestamp":"');

/** True when `word` is at `bytes[at]`. */
function wordAt(b: Uint8Array, at: number, word: readonly number[]): boolean {
  if (at + word.length > b.length) return false;
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word[k]) return false;
  return true;
}

/** The index of the quote that ends a plain string (ASCII, no escape) whose text starts at `at`; -1 otherwise. */
function plainStringEnd(b: Uint8Array, at: number): number {
  for (let k = at; k < b.length; k++) {
    const c = b[k];
    if (c === QUOTE) return k;
    if (c === BACKSLASH || c >= 0x80) return -1;
  }
  return -1;
}

/**
 * The linking fields of a line as pi writes them (`{"type":"…","id":"…","parentId":…,"timestamp":"…"`,
 * plain ASCII strings) read straight through; undefined for any other line, which the general
 * scan then reads. Gives what the general scan gives, which also stops after the fourth field.
 */
function scanCanonical(b: Uint8Array): EntryKeys | undefined {
  if (!wordAt(b, 0, TYPE_OPEN)) return undefined;
  const typeEnd = plainStringEnd(b, TYPE_OPEN.length);
  if (typeEnd < 0 || !wordAt(b, typeEnd, ID_OPEN)) return undefined;
  const idStart = typeEnd + ID_OPEN.length;
  const idEnd = plainStringEnd(b, idStart);
  if (idEnd < 0 || !wordAt(b, idEnd, PARENT_OPEN)) return undefined;
  let at = idEnd + PARENT_OPEN.length;
  let parentId: string | null;
  const previousId = last.id;
  if (b[at] === QUOTE) {
    const parentEnd = plainStringEnd(b, at + 1);
    if (parentEnd < 0) return undefined;
    parentId = readStringLike(b, at, parentEnd + 1, previousId);
    at = parentEnd + 1;
  } else if (b[at] === 0x6e && b[at + 1] === 0x75 && b[at + 2] === 0x6c && b[at + 3] === 0x6c) {
    parentId = null;
    at += 4;
  } else {
    return undefined;
  }
  if (!wordAt(b, at, TIMESTAMP_OPEN)) return undefined;
  const timestampStart = at + TIMESTAMP_OPEN.length;
  const timestampEnd = plainStringEnd(b, timestampStart);
  if (timestampEnd < 0) return undefined;
  const type = last.type = readStringLike(b, TYPE_OPEN.length - 1, typeEnd + 1, last.type);
  const id = last.id = readStringLike(b, idStart - 1, idEnd + 1, undefined);
  const timestamp = last.timestamp = readStringLike(b, timestampStart - 1, timestampEnd + 1, last.timestamp);
  return { type, id, parentId, timestamp };
}

/** The general scan: the members in any order, with any spacing and escapes. */
function scanMembers(b: Uint8Array): EntryKeys | null {
  const keys: EntryKeys = {};
  const previousId = last.id;
  let found = 0;
  let i = skipSpace(b, 0);
  if (b[i] !== 0x7b) return null;
  i = skipSpace(b, i + 1);
  if (b[i] === 0x7d) return keys;
  while (i < b.length) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return null;
    const keyStart = i;
    i = skipSpace(b, keyEnd);
    if (b[i] !== 0x3a) return null;
    i = skipSpace(b, i + 1);
    const end = valueEnd(b, i);
    if (end < 0 || end === i) return null;
    const field = fieldOf(b, keyStart, keyEnd);
    if (field !== undefined) {
      if (b[i] === QUOTE) {
        if (field === "type") keys.type = last.type = readStringLike(b, i, end, last.type);
        else if (field === "id") keys.id = last.id = readStringLike(b, i, end, undefined);
        else if (field === "parentId") keys.parentId = readStringLike(b, i, end, previousId);
        else keys.timestamp = last.timestamp = readStringLike(b, i, end, last.timestamp);
      } else if (field === "parentId" && isNullValue(b, i, end)) {
        keys.parentId = null;
      }
      if (++found === 4) return keys;
    }
    i = skipSpace(b, end);
    if (b[i] === 0x2c) {
      i = skipSpace(b, i + 1);
      continue;
    }
    return b[i] === 0x7d ? keys : null;
  }
  return null;
}

/** Which linking field the key span `[start, end)` (quotes included) names, if any. */
function fieldOf(b: Uint8Array, start: number, end: number): "type" | "id" | "parentId" | "timestamp" | undefined {
  switch (end - start - 2) {
    case 4:
      return keyIs(b, start, end, "type") ? "type" : undefined;
    case 2:
      return keyIs(b, start, end, "id") ? "id" : undefined;
    case 8:
      return keyIs(b, start, end, "parentId") ? "parentId" : undefined;
    case 9:
      return keyIs(b, start, end, "timestamp") ? "timestamp" : undefined;
    default:
      return undefined;
  }
}
