/**
 * Many paths held for long (a server's background index, a planned listing kept until the next
 * change) as one string and where each ends: at 25,000 sessions, 25,000 separate path strings
 * (each made by joining a folder and a name) held about 11 MB, their text is 3.
 * @module
 */

/**
 * @example
 * ```ts
 * const paths = new PackedPaths(["/a/1.jsonl", "/a/2.jsonl", "/b/3.jsonl"]);
 * paths.slice(1, 3); // ["/a/2.jsonl", "/b/3.jsonl"]
 * ```
 */
export class PackedPaths {
  readonly #text: string;
  /** Where each path ends in `#text`. */
  readonly #ends: Uint32Array | Float64Array;

  constructor(paths: readonly string[]) {
    this.#text = paths.join("");
    this.#ends = this.#text.length < 2 ** 32 ? new Uint32Array(paths.length) : new Float64Array(paths.length);
    let end = 0;
    paths.forEach((path, i) => (this.#ends[i] = end += path.length));
  }

  get length(): number {
    return this.#ends.length;
  }

  /** The paths from `from` up to (not including) `to`, as `Array.prototype.slice` takes them. */
  slice(from: number, to = this.length): string[] {
    const out: string[] = [];
    for (let i = Math.max(0, from); i < Math.min(to, this.length); i++) out.push(this.#text.slice(i === 0 ? 0 : this.#ends[i - 1], this.#ends[i]));
    return out;
  }

  /** About the bytes held (UTF-16 text and the ends). */
  get weight(): number {
    return this.#text.length * 2 + this.#ends.byteLength;
  }
}
