/**
 * Validating session files: entry fields, types, roles, compactions and versions, merged
 * with the reader's and the tree's issues for `check`.
 * @module
 */
export * from "./check-entries.ts";
export * from "./session-checker.ts";
