/**
 * Reading session files: lines, issues, the full reader and the header scan.
 * @module
 */
export * from "./issue.ts";
export * from "./line-splitter.ts";
export * from "./decode-line.ts";
export * from "./header-problem.ts";
export * from "./json-depth.ts";
export * from "./read-session.ts";
export * from "./scan-keys.ts";
export * from "./skeleton-reader.ts";
export * from "./header-scan.ts";
export * from "./lean-entry.ts";
export * from "./skim-line.ts";
