/**
 * Which documents a search looks at: by role (`--role`), thinking only on request, and by the
 * entry's time (`--since` / `--until`, calendar bounds in a time zone).
 * @module
 */
import { type DateBound, onOrAfter, onOrBefore } from "../stats/date-bound.ts";
import { localDays } from "../stats/time-buckets.ts";

/** What a search looks at. */
export interface DocFilterOptions {
  /** Only these roles (see `DOC_ROLES`); all when absent. */
  roles?: readonly string[];
  /** Also search assistant thinking. */
  thinking?: boolean;
  since?: DateBound;
  until?: DateBound;
  /** Time zone of calendar bounds; the runtime's when absent. */
  tz?: string;
}

/** What the filter needs to know about a document. */
export interface DocFacts {
  role: string;
  part: string;
  timestamp: string | null;
}

/**
 * A predicate for documents.
 *
 * @example
 * ```ts
 * docFilter({ roles: ["user"] })({ role: "assistant", part: "text", timestamp: null }); // false
 * ```
 */
export function docFilter(options: DocFilterOptions): (doc: DocFacts) => boolean {
  const roles = options.roles?.length ? new Set(options.roles) : undefined;
  const { since, until } = options;
  const day = since || until ? localDays(options.tz) : undefined;
  return (doc) => {
    if (doc.part === "thinking" && !options.thinking) return false;
    if (roles && !roles.has(doc.role)) return false;
    if (!day) return true;
    const ms = doc.timestamp === null ? NaN : Date.parse(doc.timestamp);
    if (Number.isNaN(ms)) return false;
    const local = day(ms);
    return (!since || onOrAfter(since, ms, local)) && (!until || onOrBefore(until, ms, local));
  };
}

/**
 * What a filter's documents have in common, for an index to leave the others out before it is
 * asked: times from `fromMs` (inclusive) to `toMs` (exclusive), these roles. It holds every
 * document `docFilter` takes, and may hold more (a calendar bound is widened by
 * `BOUND_MARGIN_MS`); absent fields leave nothing out.
 */
export interface DocBounds {
  fromMs?: number;
  toMs?: number;
  roles?: readonly string[];
}

/**
 * How far a calendar bound's instant is widened: a zone whose clocks go back across midnight
 * has a local date that runs backwards for an hour.
 */
export const BOUND_MARGIN_MS = 3 * 3600e3;

const QUARTER_HOUR_MS = 15 * 60e3;
/** Farther from UTC than any zone's offset. */
const OFFSETS_WITHIN_MS = 15 * 3600e3;

/** The first instant of a calendar prefix (`2025`, `2025-06`, `2025-06-01`) in UTC, or of the period after it (`next`). */
function periodStartUtc(prefix: string, next: boolean): number {
  const [year, month, date] = prefix.split("-").map(Number);
  const at = new Date(0);
  if (month === undefined) at.setUTCFullYear(year + (next ? 1 : 0), 0, 1);
  else if (date === undefined) at.setUTCFullYear(year, month - 1 + (next ? 1 : 0), 1);
  else at.setUTCFullYear(year, month - 1, date + (next ? 1 : 0));
  return at.getTime();
}

/**
 * The first quarter hour whose local day (`day`), cut to `prefix`'s length, is `prefix` or
 * later (`past`: later): every zone's days change on a quarter hour.
 */
function firstInstant(day: (ms: number) => string, prefix: string, past: boolean): number {
  const utc = periodStartUtc(prefix, past);
  let low = Math.floor((utc - OFFSETS_WITHIN_MS) / QUARTER_HOUR_MS);
  let high = Math.ceil((utc + OFFSETS_WITHIN_MS) / QUARTER_HOUR_MS);
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const local = day(middle * QUARTER_HOUR_MS).slice(0, prefix.length);
    if (past ? local > prefix : local >= prefix) high = middle;
    else low = middle + 1;
  }
  return low * QUARTER_HOUR_MS;
}

/**
 * The bounds of `docFilter(options)`'s documents.
 *
 * @example
 * ```ts
 * docBounds({ since: { ms: 5 }, roles: ["user"] }); // { fromMs: 5, roles: ["user"] }
 * docBounds({ until: { day: "2025-06" }, tz: "UTC" }).toMs; // Date.UTC(2025, 6, 1) + BOUND_MARGIN_MS
 * ```
 */
export function docBounds(options: DocFilterOptions): DocBounds {
  const bounds: DocBounds = {};
  const { since, until } = options;
  const day = since || until ? localDays(options.tz) : undefined;
  if (since) bounds.fromMs = "ms" in since ? since.ms : firstInstant(day!, since.day, false) - BOUND_MARGIN_MS;
  if (until) bounds.toMs = "ms" in until ? until.ms : firstInstant(day!, until.day, true) + BOUND_MARGIN_MS;
  if (options.roles?.length) bounds.roles = options.roles;
  return bounds;
}
