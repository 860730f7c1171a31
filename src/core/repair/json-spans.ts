/**
 * Finding JSON values inside the raw bytes of a line without decoding or re-serialising
 * anything: where an object glued to another ends, whether a fragment is a record cut off
 * before its end, and where one top-level value sits (to change it alone).
 * Every structural byte of JSON is ASCII, so scanning bytes is exact even in invalid UTF-8.
 * @module
 */

/** A byte range `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

// Lenient, as the reader is: a line with a bad byte still holds its record.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** JSON whitespace. */
function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;
}

/** The first index from `at` that is not whitespace (or `end`). */
export function skipSpace(bytes: Uint8Array, at: number, end: number): number {
  while (at < end && isSpace(bytes[at])) at++;
  return at;
}

/**
 * Where the string, object or array starting at `at` ends (exclusive), by quotes and nesting
 * alone; -1 when `end` comes first (the value is cut off). Whether it parses is another matter.
 *
 * @example Glued records
 * ```ts
 * const line = new TextEncoder().encode('{"a":"}{"}{"b":1}');
 * nestedEnd(line, 0, line.length); // 10
 * ```
 */
export function nestedEnd(bytes: Uint8Array, at: number, end: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < end; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth <= 0) return depth === 0 ? i + 1 : -1;
    }
  }
  return -1;
}

/** The value of the JSON text in `bytes[start, end)`, or undefined when it does not parse. */
export function parseSpan(bytes: Uint8Array, start: number, end: number): unknown {
  try {
    return JSON.parse(decoder.decode(bytes.subarray(start, end)));
  } catch {
    return undefined;
  }
}

/**
 * True when `bytes[start, end)` is the beginning of a JSON object cut off before its end
 * (what a torn write leaves): it opens with `{` and its braces never close.
 */
export function isCutOffObject(bytes: Uint8Array, start: number, end: number): boolean {
  const at = skipSpace(bytes, start, end);
  return at < end && bytes[at] === OPEN_BRACE && nestedEnd(bytes, at, end) < 0;
}

/**
 * The span of the value of the top-level `key` of the object in `bytes` (the last one when
 * the key repeats, as `JSON.parse` keeps the last), or null when there is none.
 *
 * @example
 * ```ts
 * const line = new TextEncoder().encode('{"id":"b","parentId":"a","x":{"parentId":1}}');
 * valueSpan(line, "parentId"); // {start: 21, end: 24}: the bytes "a" with their quotes
 * ```
 */
export function valueSpan(bytes: Uint8Array, key: string): Span | null {
  let at = skipSpace(bytes, 0, bytes.length);
  if (bytes[at] !== OPEN_BRACE) return null;
  let found: Span | null = null;
  at++;
  for (;;) {
    at = skipSpace(bytes, at, bytes.length);
    if (bytes[at] !== QUOTE) return found;
    const keyEnd = nestedEnd(bytes, at, bytes.length);
    if (keyEnd < 0) return found;
    const name = parseSpan(bytes, at, keyEnd);
    at = skipSpace(bytes, keyEnd, bytes.length);
    if (bytes[at] !== COLON) return found;
    const valueStart = skipSpace(bytes, at + 1, bytes.length);
    const valueEnd = endOfValue(bytes, valueStart);
    if (valueEnd < 0) return found;
    if (name === key) found = { start: valueStart, end: valueEnd };
    at = skipSpace(bytes, valueEnd, bytes.length);
    if (bytes[at] !== COMMA) return found;
    at++;
  }
}

/** The end of the value at `at`: nested ones by their brackets, literals at the next `,` or `}`. */
function endOfValue(bytes: Uint8Array, at: number): number {
  const b = bytes[at];
  if (b === QUOTE || b === OPEN_BRACE || b === OPEN_BRACKET) return nestedEnd(bytes, at, bytes.length);
  let i = at;
  while (i < bytes.length && bytes[i] !== COMMA && bytes[i] !== CLOSE_BRACE && !isSpace(bytes[i])) i++;
  return i > at ? i : -1;
}

/** `bytes` with `span` replaced by `replacement`. */
export function replaceSpan(bytes: Uint8Array, span: Span, replacement: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length - (span.end - span.start) + replacement.length);
  out.set(bytes.subarray(0, span.start), 0);
  out.set(replacement, span.start);
  out.set(bytes.subarray(span.end), span.start + replacement.length);
  return out;
}
