/**
 * Facts about a session as a whole: listing info and usage totals.
 * @module
 */
export * from "./session-info.ts";
export * from "./usage-totals.ts";
export * from "./round-cost.ts";
