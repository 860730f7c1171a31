/**
 * Masking secrets in exports: the rules per kind, a `Redactor` for text and JSON values,
 * and a byte-level test that lets a streaming export skip lines with nothing to mask.
 * @module
 */
export * from "./secret-rules.ts";
export * from "./redactor.ts";
export * from "./line-scan.ts";
