/**
 * Strings a byte a character. JavaScriptCore keeps a string two bytes a character once any of
 * its characters is past U+007F as Bun's SQLite hands it over (a folder's names with one "ü"),
 * and every string cut or joined from it after: the project folders' paths, then the path of
 * every session in them (250 bytes instead of 125 for each of the picker's 25,000 rows).
 * @module
 */

/** Characters past ASCII. */
const PAST_ASCII = /[^\x00-\x7f]/;
/** Characters that need two bytes in the engine's strings. */
const WIDE = /[^\x00-\xff]/;

/**
 * `text` a byte a character where its characters allow, as a copy in one piece when it holds
 * Latin-1 characters past ASCII (the engine builds a JSON text that way and parses it into such
 * a string), else `text` itself: ASCII text comes a byte a character already.
 *
 * @example
 * ```ts
 * oneByte("ünïcode") === "ünïcode"; // true: the same characters, a byte each
 * ```
 */
export function oneByte(text: string): string {
  return PAST_ASCII.test(text) && !WIDE.test(text) ? JSON.parse(JSON.stringify(text)) : text;
}
