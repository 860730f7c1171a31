/**
 * Full-text search, pure parts: query parsing and matching, the FTS5 expression and raw-line
 * prefilter that narrow a search, the texts of an entry, and snippets.
 * @module
 */
export * from "./words.ts";
export * from "./query.ts";
export * from "./fts-expression.ts";
export * from "./line-prefilter.ts";
export * from "./entry-docs.ts";
export * from "./snippet.ts";
export * from "./doc-filter.ts";
export * from "./byte-needle.ts";
