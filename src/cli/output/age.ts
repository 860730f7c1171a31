/**
 * Relative ages as pi's session picker shows them: now, 5m, 3h, 2d, 1w, 4mo, 1y.
 * @module
 */

/** The units of an age, by `ageCode`'s unit number (0: "now"). */
const UNITS = ["now", "m", "h", "d", "w", "mo", "y"];

/**
 * An age as a number: its count times 8 plus its unit (`UNITS`), 0 for "now", -1 for an age
 * that is not one. What a long listing counts ages by: a number per session, not a string.
 */
export function ageCode(thenMs: number, nowMs: number): number {
  const seconds = Math.max(0, (nowMs - thenMs) / 1000);
  if (!Number.isFinite(seconds)) return -1;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 0;
  if (minutes < 60) return minutes * 8 + 1;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return hours * 8 + 2;
  const days = Math.floor(hours / 24);
  if (days < 7) return days * 8 + 3;
  if (days < 30) return Math.floor(days / 7) * 8 + 4;
  if (days < 365) return Math.floor(days / 30) * 8 + 5;
  return Math.floor(days / 365) * 8 + 6;
}

/** The text of an `ageCode`. */
export function ageText(code: number): string {
  if (code < 0) return "?";
  const unit = code % 8;
  return unit === 0 ? UNITS[0] : `${(code - unit) / 8}${UNITS[unit]}`;
}

/**
 * @example
 * ```ts
 * relativeAge(new Date(0), new Date(3 * 3600_000)); // "3h"
 * ```
 */
export function relativeAge(then: Date, now: Date): string {
  return ageText(ageCode(then.getTime(), now.getTime()));
}
