/**
 * `move`, decided purely: which sessions follow a renamed project folder, where pi looks for
 * them under the new cwd, and their rewritten headers.
 * @module
 */
export * from "./plan-move.ts";
