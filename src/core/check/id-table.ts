/**
 * Entry ids as numbers, for `check` of a session of 100k+ entries: string ids are interned in
 * typed arrays (`StringKeys`, core/intern); values that are not strings (a number, `null`, an
 * object where an id belongs) are rare and kept as they are, under keys of the same numbering.
 * @module
 */
import { blankKey, hasString, keyAt, keyFor, keyIs, keyOf, stringKeys } from "../intern/mod.ts";

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

/**
 * Keys for id values (`Map` equality: a string, a number, `null`…; each object or array a key of
 * its own that nothing finds), numbered 0, 1, 2… in the order first seen.
 *
 * @example
 * ```ts
 * const ids = new IdTable();
 * ids.key("a1b2c3d4"); // 0
 * ids.find("a1b2c3d4"); // 0
 * ids.value(0); // "a1b2c3d4"
 * ```
 */
export class IdTable {
  readonly #strings = stringKeys();
  /** Values that are not strings (blank keys of `#strings`), and their keys. */
  readonly #others = new Map<unknown, number>();
  readonly #otherValues = new Map<number, unknown>();

  /** How many keys there are. */
  get size(): number {
    return this.#strings.keys;
  }

  /** The key of `value`, made on first sight. */
  key(value: unknown): number {
    if (typeof value === "string") return keyFor(this.#strings, value);
    const known = isObject(value) ? undefined : this.#others.get(value);
    if (known !== undefined) return known;
    const key = blankKey(this.#strings);
    if (!isObject(value)) this.#others.set(value, key);
    this.#otherValues.set(key, value);
    return key;
  }

  /** The key of `value`, or -1 when it has none. */
  find(value: unknown): number {
    if (typeof value === "string") return keyOf(this.#strings, value);
    return isObject(value) ? -1 : this.#others.get(value) ?? -1;
  }

  /** The value of a key, as it was given. */
  value(key: number): unknown {
    return hasString(this.#strings, key) ? keyAt(this.#strings, key) : this.#otherValues.get(key);
  }

  /** Whether a key's value is a string. */
  isString(key: number): boolean {
    return hasString(this.#strings, key);
  }

  /** Whether key `key` is the string `text`. */
  is(key: number, text: string): boolean {
    return keyIs(this.#strings, key, text);
  }
}
