/**
 * Session storage rules: paths, layout and settings.
 * @module
 */
export * from "./paths.ts";
export * from "./layout.ts";
export * from "./settings.ts";
