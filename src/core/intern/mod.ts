/**
 * Interning: strings numbered in typed arrays (`StringKeys`) and integers in blocks
 * (`IntBlocks`, `IntList`), paths packed a byte a character (`PackedPaths`) and strings copied so (`oneByte`), for the ids of sessions too long to hold them as strings in `Map`s.
 * @module
 */
export { intAt, intBlocks, type IntBlocks, IntList, packInts, pushInt, setInt } from "./int-blocks.ts";
export { blankKey, hasString, keyArrays, keyAt, keyFor, keyIs, keyOf, packKeys, type StringKeys, stringKeys } from "./string-keys.ts";
export { oneByte } from "./one-byte.ts";
export { PackedPaths } from "./packed-paths.ts";
