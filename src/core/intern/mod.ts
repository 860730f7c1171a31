/**
 * Interning: strings numbered in typed arrays (`StringKeys`) and integers in blocks
 * (`IntBlocks`, `IntList`), and paths packed a byte a character (`PackedPaths`), for the ids of sessions too long to hold them as strings in `Map`s.
 * @module
 */
export { intAt, intBlocks, type IntBlocks, IntList, packInts, pushInt, setInt } from "./int-blocks.ts";
export { blankKey, hasString, keyArrays, keyAt, keyFor, keyIs, keyOf, packKeys, type StringKeys, stringKeys } from "./string-keys.ts";
export { PackedPaths } from "./packed-paths.ts";
