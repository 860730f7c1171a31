/**
 * Walks the members of a JSON object in a line's bytes and lets the visitor decide, member by
 * member, whether to read a value, descend into it, skip it or stop: user messages are done
 * after their `role`, without walking their content.
 * @module
 */
import { skipSpace, stringEnd } from "../read/scan-keys.ts";

/** Returned by a visitor to end the walk early. */
export const STOP = -2;

/**
 * Visits each member of the object starting at `i`. `visit(keyStart, keyEnd, valueStart)` must
 * return the index just past the value (use `valueEnd(b, valueStart)` to skip it), or `STOP`.
 * Returns the index just past the closing brace, `STOP`, or -1 for bytes that are not a
 * well-formed object as far as the walk went.
 *
 * @example
 * ```ts
 * const b = new TextEncoder().encode('{"a":1,"b":"x"}');
 * scanMembers(b, 0, (ks, ke, vs) => valueEnd(b, vs)); // 15 (valueEnd from read/scan-keys.ts)
 * ```
 */
export function scanMembers(b: Uint8Array, i: number, visit: (keyStart: number, keyEnd: number, valueStart: number) => number): number {
  i = skipSpace(b, i);
  if (b[i] !== 0x7b) return -1;
  i = skipSpace(b, i + 1);
  if (b[i] === 0x7d) return i + 1;
  while (i < b.length) {
    if (b[i] !== 0x22) return -1;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return -1;
    const keyStart = i;
    i = skipSpace(b, keyEnd);
    if (b[i] !== 0x3a) return -1;
    const valueStart = skipSpace(b, i + 1);
    const end = visit(keyStart, keyEnd, valueStart);
    if (end === STOP) return STOP;
    if (end < 0 || end <= valueStart) return -1;
    i = skipSpace(b, end);
    if (b[i] === 0x2c) {
      i = skipSpace(b, i + 1);
      continue;
    }
    return b[i] === 0x7d ? i + 1 : -1;
  }
  return -1;
}

