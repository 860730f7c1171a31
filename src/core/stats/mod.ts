/**
 * Usage statistics: fork-proof attribution of usage entries, calendar grouping in a time
 * zone, date bounds, and the aggregated report.
 * @module
 */
export * from "./attribution.ts";
export * from "./time-buckets.ts";
export * from "./date-bound.ts";
export * from "./aggregate-stats.ts";
export * from "./usage-blocks.ts";
