/**
 * Calendar keys for an instant in a time zone: hour `2025-06-01 14:00`, day `2025-06-01`, ISO
 * week `2025-W22`, month `2025-06`. The runtime's own zone and UTC come from `Date`'s getters; other zones from Intl,
 * whose first use in a process loads ICU's calendar data (8 MB of memory in Node 20, more
 * than `stats` needs for everything else). Results are cached per quarter hour, the finest
 * step at which any zone's offset changes.
 * @module
 */

/** How `stats` groups rows. */
export type StatsBy = "hour" | "day" | "week" | "month" | "session" | "model" | "project";

const QUARTER_HOUR = 15 * 60 * 1000;
const DAY = 24 * 60 * 60 * 1000;

/** True for the names of UTC itself, which need no zone data. */
function isUtc(tz: string): boolean {
  return /^(etc\/)?utc$/i.test(tz);
}

/** Throws `RangeError` for a time zone Intl does not know. */
export function checkTimeZone(tz: string): void {
  if (!isUtc(tz)) new Intl.DateTimeFormat("en-US", { timeZone: tz });
}

function dayKey(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The day as Intl writes it: years before 1 come out as era years, so only Intl itself can say. */
function intlDays(tz: string | undefined): (ms: number) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (ms) => {
    format ??= new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hourCycle: "h23" });
    const parts: Record<string, string> = {};
    for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
    return `${parts.year.padStart(4, "0")}-${parts.month}-${parts.day}`;
  };
}

/** The day from `Date`'s getters, local or UTC, for years 1 to 9999 (Intl for the rest). */
function dateDays(utc: boolean, tz: string | undefined): (ms: number) => string {
  const intl = intlDays(tz);
  return (ms) => {
    const date = new Date(ms);
    const year = utc ? date.getUTCFullYear() : date.getFullYear();
    if (year < 1 || year > 9999) return intl(ms);
    return utc ? dayKey(year, date.getUTCMonth() + 1, date.getUTCDate()) : dayKey(year, date.getMonth() + 1, date.getDate());
  };
}

/**
 * A function from epoch milliseconds to the local calendar day in `tz` (`YYYY-MM-DD`), the
 * runtime's zone when absent.
 *
 * @example
 * ```ts
 * localDays("Asia/Tokyo")(Date.UTC(2025, 0, 31, 20)); // "2025-02-01"
 * ```
 */
export function localDays(tz?: string): (ms: number) => string {
  const uncached = tz === undefined ? dateDays(false, tz) : isUtc(tz) ? dateDays(true, tz) : intlDays(tz);
  const cache = new Map<number, string>();
  // The last block asked for, before the map: a session's rows come minutes apart.
  let lastBlock = NaN;
  let lastDay = "";
  return (ms) => {
    const block = Math.floor(ms / QUARTER_HOUR);
    if (block === lastBlock) return lastDay;
    let day = cache.get(block);
    if (day === undefined) cache.set(block, day = uncached(ms));
    lastBlock = block;
    lastDay = day;
    return day;
  };
}

/** The local time to the minute from Intl, `YYYY-MM-DD hh:mm` (hour 24 never: h23). */
function intlMinutes(tz: string | undefined): (ms: number) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (ms) => {
    format ??= new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const parts: Record<string, string> = {};
    for (const part of format.formatToParts(ms)) parts[part.type] = part.value;
    return `${parts.year.padStart(4, "0")}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  };
}

/**
 * A function from epoch milliseconds to the local time in `tz` to the minute
 * (`YYYY-MM-DD hh:mm`), the runtime's zone when absent.
 *
 * @example
 * ```ts
 * localMinutes("UTC")(Date.UTC(2025, 0, 31, 20, 5)); // "2025-01-31 20:05"
 * ```
 */
export function localMinutes(tz?: string): (ms: number) => string {
  const intl = intlMinutes(tz);
  if (tz !== undefined && !isUtc(tz)) return intl;
  const utc = tz !== undefined;
  const two = (n: number) => String(n).padStart(2, "0");
  return (ms) => {
    const d = new Date(ms);
    const year = utc ? d.getUTCFullYear() : d.getFullYear();
    if (year < 1 || year > 9999) return intl(ms);
    const [hour, minute] = utc ? [d.getUTCHours(), d.getUTCMinutes()] : [d.getHours(), d.getMinutes()];
    const day = utc ? dayKey(year, d.getUTCMonth() + 1, d.getUTCDate()) : dayKey(year, d.getMonth() + 1, d.getDate());
    return `${day} ${two(hour)}:${two(minute)}`;
  };
}

/**
 * A function from epoch milliseconds to the local hour in `tz` (`YYYY-MM-DD hh:00`), cached per
 * quarter hour like `localDays`.
 */
export function localHours(tz?: string): (ms: number) => string {
  const minutes = localMinutes(tz);
  const cache = new Map<number, string>();
  return (ms) => {
    const block = Math.floor(ms / QUARTER_HOUR);
    let hour = cache.get(block);
    if (hour === undefined) cache.set(block, hour = minutes(ms).slice(0, 14) + "00");
    return hour;
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
