/**
 * The pi-session core: format types, reading, migration, the entry tree and the model
 * context, and the pure parts of the catalog (digests, search, stats, file references).
 * Web APIs only; runs unchanged on Node, Deno and Bun alike.
 * @module
 */
export * from "./format/mod.ts";
export * from "./read/mod.ts";
export * from "./migrate/mod.ts";
export * from "./tree/mod.ts";
export * from "./context/mod.ts";
export * from "./info/mod.ts";
export * from "./storage/mod.ts";
export * from "./check/mod.ts";
export * from "./digest/mod.ts";
export * from "./search/mod.ts";
export * from "./stats/mod.ts";
export * from "./files/mod.ts";
