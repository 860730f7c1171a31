/**
 * Format migrations v1 -> v2 -> v3, one file per step.
 * @module
 */
export * from "./migration.ts";
export * from "./derive-id.ts";
export * from "./v1-to-v2.ts";
export * from "./v2-to-v3.ts";
export * from "./migrate-session.ts";
