/**
 * `repair`, decided purely: which damaged lines can be fixed without guessing (BOM, CRLF, NUL
 * padding, glued and cut-off records, a missing final newline), and the named fixes for the
 * tree (relinking orphans, breaking cycles), each change reported with its line.
 * @module
 */
export * from "./repair-change.ts";
export * from "./plan-repair.ts";
