/**
 * Calendar keys for an instant in a time zone: day `2025-06-01`, ISO week `2025-W22`, month
 * `2025-06`. Intl does the zone arithmetic; results are cached per quarter hour, the finest
 * step at which any zone's offset changes.
 * @module
 */

/** How `stats` groups rows. */
export type StatsBy = "day" | "week" | "month" | "session" | "model" | "project";

const QUARTER_HOUR = 15 * 60 * 1000;
const DAY = 24 * 60 * 60 * 1000;

/** Throws `RangeError` for a time zone Intl does not know. */
export function checkTimeZone(tz: string): void {
  new Intl.DateTimeFormat("en-US", { timeZone: tz });
}

/**
 * A function from epoch milliseconds to the local calendar day in `tz` (`YYYY-MM-DD`).
 *
 * @example
 * ```ts
 * localDays("Asia/Tokyo")(Date.UTC(2025, 0, 31, 20)); // "2025-02-01"
 * ```
 */
export function localDays(tz?: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hourCycle: "h23" });
  const cache = new Map<number, string>();
  return (ms) => {
    const block = Math.floor(ms / QUARTER_HOUR);
    let day = cache.get(block);
    if (day === undefined) {
      const parts: Record<string, string> = {};
      for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
      day = `${parts.year.padStart(4, "0")}-${parts.month}-${parts.day}`;
      cache.set(block, day);
    }
    return day;
  };
}

/** The ISO week (`YYYY-Www`, weeks start on Monday) of a calendar day `YYYY-MM-DD`. */
export function isoWeek(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  const date = Date.UTC(y, m - 1, d);
  const weekday = (new Date(date).getUTCDay() + 6) % 7;
  const thursday = date + (3 - weekday) * DAY;
  const year = new Date(thursday).getUTCFullYear();
  const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY));
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The calendar key of a local day for a time grouping. */
export function calendarKey(by: "day" | "week" | "month", day: string): string {
  return by === "day" ? day : by === "month" ? day.slice(0, 7) : isoWeek(day);
}
