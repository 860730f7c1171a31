/**
 * Which sessions touched which files: references extracted from entries, shell command
 * words, and pi's path resolution rules.
 * @module
 */
export * from "./file-refs.ts";
export * from "./shell-words.ts";
