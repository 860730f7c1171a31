/**
 * `--since` and `--until` values: a calendar day, month or year in the report's time zone
 * (inclusive), an ISO instant, or a span back from now (`7d`, `12h`, `2w`).
 * @module
 */

/** A calendar prefix (`2025`, `2025-06`, `2025-06-01`) or an instant. */
export type DateBound = { day: string } | { ms: number };

const UNITS: Record<string, number> = { h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** True for a real month and day (`2025-02-29` is not; `2024-02-29` is). */
function isCalendarDate(value: string): boolean {
  const [year, month = 1, day = 1] = value.split("-").map(Number);
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Parses a bound; throws `SyntaxError` with the accepted forms when it cannot.
 *
 * @example
 * ```ts
 * parseDateBound("2025-06", new Date()); // { day: "2025-06" }
 * parseDateBound("7d", new Date(8 * 86400e3)); // { ms: 86400000 }
 * ```
 */
export function parseDateBound(text: string, now: Date): DateBound {
  const value = text.trim();
  if (/^\d{4}(-\d{2}(-\d{2})?)?$/.test(value) && isCalendarDate(value)) return { day: value };
  const span = /^(\d+)([hdw])$/.exec(value);
  if (span) return { ms: now.getTime() - Number(span[1]) * UNITS[span[2]] };
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isNaN(ms)) return { ms };
  throw new SyntaxError(`Cannot read the date "${text}": use YYYY-MM-DD, YYYY-MM, an ISO time, or a span such as 7d`);
}

/** True when an entry at `ms` (local day `day`) is on or after `bound`. */
export function onOrAfter(bound: DateBound, ms: number, day: string): boolean {
  return "ms" in bound ? ms >= bound.ms : day.slice(0, bound.day.length) >= bound.day;
}

/** True when an entry at `ms` (local day `day`) is on or before `bound` (before, for an instant). */
export function onOrBefore(bound: DateBound, ms: number, day: string): boolean {
  return "ms" in bound ? ms < bound.ms : day.slice(0, bound.day.length) <= bound.day;
}
