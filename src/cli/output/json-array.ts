/**
 * A JSON array printed an element at a time, in pieces of about 64 KB: the same text as
 * `JSON.stringify(array, null, 2)`, without the array (or the one long string) ever held whole.
 * @module
 */

/**
 * Writes `items` through `write` as `JSON.stringify([...items], null, 2) + "\n"` reads, and
 * gives how many there were.
 *
 * @example
 * ```ts
 * writeJsonArray([{ a: 1 }], (text) => process.stdout.write(text)); // [\n  {\n    "a": 1\n  }\n]\n
 * ```
 */
export function writeJsonArray(items: Iterable<unknown>, write: (text: string) => void): number {
  let piece = "[";
  let count = 0;
  for (const element of items) {
    // Inside an array, what JSON leaves out of an object (undefined, a function) is null.
    const text = JSON.stringify(element, null, 2) ?? "null";
    piece += `${count === 0 ? "" : ","}\n  ${text.replaceAll("\n", "\n  ")}`;
    count++;
    if (piece.length >= 65536) {
      write(piece);
      piece = "";
    }
  }
  write(count === 0 ? "[]\n" : piece + "\n]\n");
  return count;
}
