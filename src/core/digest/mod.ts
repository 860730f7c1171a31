/**
 * Resumable one-pass digests of session files, the units the catalog caches: listing info,
 * usage rows, file references and search documents.
 * @module
 */
export * from "./digester.ts";
export * from "./hash-bytes.ts";
export * from "./scan-members.ts";
export * from "./listing-digest.ts";
export * from "./entry-stamp.ts";
export * from "./usage-state.ts";
export * from "./usage-digest.ts";
export * from "./files-digest.ts";
export * from "./docs-digest.ts";
