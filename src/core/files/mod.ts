/**
 * Which sessions touched which files: references extracted from entries, shell command
 * words, pi's path resolution rules, and path globs.
 * @module
 */
export * from "./file-refs.ts";
export * from "./glob.ts";
export * from "./shell-words.ts";
