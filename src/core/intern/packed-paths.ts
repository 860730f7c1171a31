/**
 * Many paths held for long (a server's background index, a planned listing kept until the next
 * change) as one block and where each ends: at 25,000 sessions, 25,000 separate path strings
 * (each made by joining a folder and a name) held about 11 MB, their text is 3. Paths of Latin-1
 * characters only (nearly always) are kept a byte a character: joined into one string, they were
 * held two bytes a character (the engine made the joined string 16-bit; 6.3 MB at 25,000
 * sessions, for each of the two kept).
 * @module
 */

/** Characters turned back into a string at a time (an argument list must stay short). */
const CHUNK = 8192;

/**
 * @example
 * ```ts
 * const paths = new PackedPaths(["/a/1.jsonl", "/a/2.jsonl", "/b/3.jsonl"]);
 * paths.slice(1, 3); // ["/a/2.jsonl", "/b/3.jsonl"]
 * ```
 */
export class PackedPaths {
  /** The paths' text: a byte a character when every character fits, else the joined string. */
  readonly #text: Uint8Array | string;
  /** Where each path ends in `#text`. */
  readonly #ends: Uint32Array | Float64Array;

  constructor(paths: readonly string[]) {
    let chars = 0;
    let narrow = true;
    for (const path of paths) {
      chars += path.length;
      if (narrow) for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) > 0xff) narrow = false;
    }
    this.#ends = chars < 2 ** 32 ? new Uint32Array(paths.length) : new Float64Array(paths.length);
    let end = 0;
    paths.forEach((path, i) => (this.#ends[i] = end += path.length));
    if (!narrow) {
      this.#text = paths.join("");
      return;
    }
    const bytes = new Uint8Array(chars);
    let at = 0;
    for (const path of paths) for (let i = 0; i < path.length; i++) bytes[at++] = path.charCodeAt(i);
    this.#text = bytes;
  }

  get length(): number {
    return this.#ends.length;
  }

  /** The paths from `from` up to (not including) `to`, as `Array.prototype.slice` takes them. */
  slice(from: number, to = this.length): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(this.#path(i === 0 ? 0 : this.#ends[i - 1], this.#ends[i]));
    return out;
  }

  /** The path at `i` (0 ≤ i < length). */
  at(i: number): string {
    return this.#path(i === 0 ? 0 : this.#ends[i - 1], this.#ends[i]);
  }

  #path(start: number, end: number): string {
    const text = this.#text;
    if (typeof text === "string") return text.slice(start, end);
    let path = "";
    for (let at = start; at < end; at += CHUNK) path += String.fromCharCode(...text.subarray(at, Math.min(end, at + CHUNK)));
    return path;
  }

  /** About the bytes held (the text and the ends). */
  get weight(): number {
    const text = this.#text;
    return (typeof text === "string" ? text.length * 2 : text.byteLength) + this.#ends.byteLength;
  }
}
