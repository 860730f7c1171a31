/**
 * How deep a line's JSON nests, found from the bytes before anything parses them. A value
 * nested thousands of levels deep parses, but every step after it that walks the value
 * (`JSON.stringify`, `structuredClone`, redaction, rendering) overflows the engine's stack, after
 * seconds and gigabytes. Such a line is refused where it is read, so nothing later meets it.
 * @module
 */

/** The deepest nesting a line may have; pi writes entries a few levels deep (tool arguments a few more). */
export const MAX_JSON_DEPTH = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text in `bytes` opens more than `max` arrays or objects inside one
 * another. Strings are skipped (a `[` in a string does not count). Linear, no recursion; a
 * line shorter than `max` bytes is answered without looking at it.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("[".repeat(5) + "]".repeat(5));
 * nestsDeeperThan(bytes, 4); // true
 * nestsDeeperThan(bytes, 5); // false
 * ```
 */
export function nestsDeeperThan(bytes: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  if (bytes.length <= max) return false;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      i = stringEnd(bytes, i + 1);
      if (i < 0) return false;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote that closes a string whose text starts at `start`; -1 if none. */
function stringEnd(bytes: Uint8Array, start: number): number {
  for (let at = start;;) {
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let k = quote - 1; k >= start && bytes[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}
