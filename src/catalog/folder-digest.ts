/**
 * Fingerprints of a folder of sessions, kept so that a full check need not load what it would
 * only compare: `namesDigest` of the names a folder was listed with (the SQLite store keeps it
 * beside the names, folder-check.ts), and `stampsDigest` of its files' names, sizes and mtimes
 * when its records were last found to be exactly those files (the section's coverage,
 * covered-check.ts). Each is 64 bits (cyrb53's mixing, two 32-bit lanes, as hash-bytes.ts):
 * two different folders share one with odds of about one in 10^19.
 * @module
 */
import type { FileStat } from "../io/file-system.ts";

/** The words of a float64, for feeding a number's exact bits. */
const float = new Float64Array(1);
const words = new Int32Array(float.buffer);

/** A running fingerprint: texts and numbers fed in order, `digest()` at the end. */
class Fingerprint {
  #h1 = 0xdeadbeef;
  #h2 = 0x41c6ce57;

  #feed(c: number): void {
    this.#h1 = Math.imul(this.#h1 ^ c, 2654435761);
    this.#h2 = Math.imul(this.#h2 ^ c, 1597334677);
  }

  /** A text and then its length (so that "ab","c" and "a","bc" differ). */
  text(text: string): this {
    // The lanes in locals for the loop: a call per character cost 14 ms over 25,000 names.
    let h1 = this.#h1;
    let h2 = this.#h2;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.#h1 = h1;
    this.#h2 = h2;
    this.#feed(text.length ^ 0x5bd1e995);
    return this;
  }

  /** A number, by its float64 bits (sizes and mtimes exactly, fractions of a millisecond too). */
  number(value: number): this {
    float[0] = value;
    this.#feed(words[0]);
    this.#feed(words[1]);
    return this;
  }

  /** 16 hex digits. */
  digest(): string {
    const h1 = Math.imul(this.#h1 ^ (this.#h1 >>> 16), 2246822507) ^ Math.imul(this.#h2 ^ (this.#h2 >>> 13), 3266489909);
    const h2 = Math.imul(this.#h2 ^ (this.#h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
  }
}

/**
 * The fingerprint of a folder's names in the order given (a folder listed again unchanged gives
 * them in the same order).
 *
 * @example
 * ```ts
 * namesDigest(["a.jsonl", "b.jsonl"]) !== namesDigest(["b.jsonl", "a.jsonl"]); // true
 * ```
 */
export function namesDigest(names: readonly string[]): string {
  const print = new Fingerprint().number(names.length);
  for (const name of names) print.text(name);
  return print.digest();
}

/**
 * The fingerprint of a folder's files (`names`, each with its stat in `stats`), or undefined
 * when one of them is not a file: what a full check compares with the fingerprint kept in the
 * folder's coverage.
 *
 * @example
 * ```ts
 * const stat = { isFile: true, isDirectory: false, size: 10, mtimeMs: 1.5 };
 * stampsDigest(["a.jsonl"], [stat]) !== stampsDigest(["a.jsonl"], [{ ...stat, mtimeMs: 2 }]); // true
 * ```
 */
export function stampsDigest(names: readonly string[], stats: readonly (FileStat | null)[]): string | undefined {
  const print = new Fingerprint().number(names.length);
  for (let i = 0; i < names.length; i++) {
    const stat = stats[i];
    if (!stat?.isFile) return undefined;
    print.text(names[i]).number(stat.size).number(stat.mtimeMs);
  }
  return print.digest();
}
