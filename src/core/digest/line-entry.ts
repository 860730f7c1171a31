/**
 * The entry object of a line, parsed once for every digest that wants it: the catalog reads a
 * file for several digests at once, and the file references and the search documents both
 * parse the same assistant lines in full.
 * @module
 */
import { decodeLine, isObject } from "../read/decode-line.ts";
import type { RawLine } from "../read/line-splitter.ts";

const scratch: never[] = [];
/**
 * The last line parsed and its entry. Digests fed by one `LineSplitter` get the same bytes for
 * a line (a splitter hands out a new view for each line), so the bytes and the offset tell it.
 */
let lastBytes: Uint8Array | undefined;
let lastOffset = -1;
let lastEntry: Record<string, unknown> | undefined;

/**
 * The entry object of `line` (as in the file, not migrated), or undefined when it is blank, not
 * JSON, or not an object. The same object for every call about the same line: callers only read it.
 *
 * @example
 * ```ts
 * const line = { bytes: new TextEncoder().encode('{"type":"label","label":"x"}'), number: 2, offset: 60, terminated: true };
 * lineEntry(line) === lineEntry(line); // true
 * ```
 */
export function lineEntry(line: RawLine): Record<string, unknown> | undefined {
  if (line.bytes === lastBytes && line.offset === lastOffset) return lastEntry;
  const decoded = decodeLine(line, { bom: false, crlf: false }, scratch);
  scratch.length = 0;
  lastBytes = line.bytes;
  lastOffset = line.offset;
  lastEntry = decoded.kind === "value" && isObject(decoded.value) ? decoded.value : undefined;
  return lastEntry;
}

/** Lets go of the last line and its entry (a pass is done: they may be large). */
export function forgetLineEntry(): void {
  lastBytes = lastEntry = undefined;
  lastOffset = -1;
}
