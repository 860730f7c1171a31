/**
 * An entry's id and timestamp as two numbers, where they are of the usual kind: 8 lowercase hex
 * digits, and a time that `toISOString` writes back as the very same string. Usage rows keep
 * these numbers instead of strings; the `…At` readers take them straight from a line's bytes,
 * without making a string, and leave anything unusual to the string readers.
 * @module
 */

const HEX_ID = /^[0-9a-f]{8}$/;

/** The value of an id of 8 lowercase hex digits; undefined for any other id. */
export function hexId(id: string): number | undefined {
  return HEX_ID.test(id) ? parseInt(id, 16) : undefined;
}

/** The milliseconds of a timestamp that `toISOString` writes back unchanged; undefined otherwise. */
export function exactTime(timestamp: string): number | undefined {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) || new Date(ms).toISOString() !== timestamp ? undefined : ms;
}

/** The id `hexId` read. */
export function hexIdText(id: number): string {
  return id.toString(16).padStart(8, "0");
}

/** The timestamp `exactTime` read. */
export function exactTimeText(ms: number): string {
  return new Date(ms).toISOString();
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/**
 * `hexId` of the JSON string at `b[start, end)` (quotes included), when it is 8 lowercase hex
 * digits as they are; undefined otherwise, also for an escaped id that `hexId` might accept.
 */
export function hexIdAt(b: Uint8Array, start: number, end: number): number | undefined {
  if (end - start !== 10 || b[start] !== 0x22 || b[end - 1] !== 0x22) return undefined;
  let id = 0;
  for (let i = start + 1; i < end - 1; i++) {
    const digit = hexDigit(b[i]);
    if (digit < 0) return undefined;
    id = id * 16 + digit;
  }
  return id;
}

/** The number written in ASCII digits at `b[start, start + count)`, or -1. */
function digits(b: Uint8Array, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const c = b[i];
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + c - 0x30;
  }
  return n;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1];
}

/** Where the separators of `YYYY-MM-DDTHH:mm:ss.sssZ` are, and what they are. */
const SEPARATORS: [number, number][] = [[4, 0x2d], [7, 0x2d], [10, 0x54], [13, 0x3a], [16, 0x3a], [19, 0x2e], [23, 0x5a]];

/**
 * `exactTime` of the JSON string at `b[start, end)` (quotes included), when it is written
 * `YYYY-MM-DDTHH:mm:ss.sssZ` with every field in range (years 100 to 9999): exactly the strings
 * `toISOString` writes for those years. Undefined for anything else, which `exactTime` decides.
 */
export function exactTimeAt(b: Uint8Array, start: number, end: number): number | undefined {
  if (end - start !== 26 || b[start] !== 0x22 || b[end - 1] !== 0x22) return undefined;
  const at = start + 1;
  for (const [offset, byte] of SEPARATORS) if (b[at + offset] !== byte) return undefined;
  const year = digits(b, at, 4);
  const month = digits(b, at + 5, 2);
  const day = digits(b, at + 8, 2);
  const hour = digits(b, at + 11, 2);
  const minute = digits(b, at + 14, 2);
  const second = digits(b, at + 17, 2);
  const milli = digits(b, at + 20, 3);
  // Date.UTC reads years 0 to 99 as 1900 to 1999: those are left to `exactTime`.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || milli < 0) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, milli);
}
