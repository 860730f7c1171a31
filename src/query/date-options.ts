/**
 * The `--since`, `--until` and `--tz` options of `stats` and `search`, read into values or
 * turned into usage errors (exit 2) that say what is accepted.
 * @module
 */
import { type DateBound, parseDateBound } from "../core/stats/date-bound.ts";
import { checkTimeZone } from "../core/stats/time-buckets.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";

/** The bound given with `--<flag>`, or undefined when the option is absent. */
export function dateOption(env: QueryEnv, flag: string, value: unknown): DateBound | undefined {
  if (typeof value !== "string") return undefined;
  try {
    return parseDateBound(value, env.now());
  } catch (error) {
    throw new QueryError("bad-option", `--${flag}: ${(error as Error).message}`, `Pass e.g. --${flag} 2025-06-01 or --${flag} 7d`);
  }
}

/** The time zone given with `--tz`, checked, or undefined for the machine's. */
export function timeZoneOption(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    checkTimeZone(value);
  } catch {
    throw new QueryError("bad-option", `--tz: unknown time zone "${value}"`, "Pass an IANA zone such as UTC or Europe/Berlin");
  }
  return value;
}
