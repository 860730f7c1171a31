/**
 * pi-session as a library: the Web-API-only core, the session layer and the file-system adapters.
 * @module
 */
export * from "./core/mod.ts";
export * from "./session/mod.ts";
export * from "./io/mod.ts";
