/**
 * Types and fixed strings of the pi session format.
 * @module
 */
export * from "./types.ts";
export * from "./summary-text.ts";
