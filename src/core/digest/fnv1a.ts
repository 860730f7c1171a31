/**
 * FNV-1a, 32 bits, over UTF-16 code units: a quick, stable hash of a short text (hash tables of
 * ids, names for cache files and cursors). Not a fingerprint: two texts may share it.
 * @module
 */

const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * The hash of `text`'s code units, as an unsigned 32-bit number.
 *
 * @example
 * ```ts
 * fnv1a("a") === 0xe40c292c; // true
 * ```
 */
export function fnv1a(text: string): number {
  let h = OFFSET;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), PRIME);
  return h >>> 0;
}

/**
 * The hash of the code units `chars[from, to)`: the same number as `fnv1a` of the text they spell.
 *
 * @example
 * ```ts
 * fnv1aCodes(new Uint16Array([0x61]), 0, 1) === fnv1a("a"); // true
 * ```
 */
export function fnv1aCodes(chars: Uint16Array, from: number, to: number): number {
  let h = OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ chars[i], PRIME);
  return h >>> 0;
}
