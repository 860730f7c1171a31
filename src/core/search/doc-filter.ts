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
