/**
 * A map from strings to non-negative integers held in a few typed arrays: the keys' UTF-16 code
 * units one after another, an open-addressed hash table of key numbers, a value per key. For
 * the index of a long session (span-index.ts): the 1.2 GB bench session's 146,765 entry ids and
 * their tool call ids held as strings in `Map`s cost about 20 MB, and were copied again when a
 * worker handed the index over; here they are a few flat arrays, compared code unit by code unit
 * (exact: no two keys share a slot by their hash alone). Plain data once `done`, so that it
 * crosses to another thread as a handful of buffers.
 * @module
 */
import { fnv1a as hashOf, fnv1aCodes as hashAt } from "../core/digest/fnv1a.ts";

/** The finished table (plain data: typed arrays and numbers). */
export interface StringTable {
  /** How many keys. */
  keys: number;
  /** The keys' code units, key after key. */
  chars: Uint16Array;
  /** Key `k`'s code units run from `starts[k]` to `starts[k + 1]`. */
  starts: Uint32Array;
  /** Each key's value. */
  values: Int32Array;
  /** Hash slot -> key number + 1 (0: empty); its length a power of two. */
  slots: Int32Array;
}


function sameKey(table: Pick<StringTable, "chars" | "starts">, k: number, key: string): boolean {
  const from = table.starts[k];
  if (table.starts[k + 1] - from !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (table.chars[from + i] !== key.charCodeAt(i)) return false;
  return true;
}

/** The number of `key` in `table` (the order it was first set in), or -1. */
export function keyOf(table: Pick<StringTable, "chars" | "starts" | "slots">, key: string): number {
  const mask = table.slots.length - 1;
  for (let s = hashOf(key) & mask; ; s = (s + 1) & mask) {
    const k = table.slots[s] - 1;
    if (k < 0) return -1;
    if (sameKey(table, k, key)) return k;
  }
}

/** The value of `key` in `table`, or undefined. */
export function valueOf(table: StringTable, key: string): number | undefined {
  const k = keyOf(table, key);
  return k < 0 ? undefined : table.values[k];
}

/** Key number `k` of `table` as a string. */
export function keyAt(table: Pick<StringTable, "chars" | "starts">, k: number): string {
  const from = table.starts[k];
  const to = table.starts[k + 1];
  let out = "";
  for (let i = from; i < to; i += 4096) out += String.fromCharCode(...table.chars.subarray(i, Math.min(to, i + 4096)));
  return out;
}

function grown<T extends Uint16Array | Uint32Array | Int32Array>(array: T, need: number): T {
  if (need <= array.length) return array;
  let size = array.length * 2;
  while (size < need) size *= 2;
  const bigger = new (array.constructor as new (n: number) => T)(size);
  bigger.set(array);
  return bigger;
}

/**
 * Builds a `StringTable`: `set` a key's value (the last set wins), `done` once all are set.
 *
 * @example
 * ```ts
 * const builder = new StringTableBuilder();
 * builder.set("a1b2c3d4", 0);
 * const table = builder.done();
 * valueOf(table, "a1b2c3d4"); // 0
 * ```
 */
export class StringTableBuilder {
  #keys = 0;
  #chars = new Uint16Array(1024);
  #starts = new Uint32Array(256);
  #values = new Int32Array(256);
  #slots = new Int32Array(512);

  /** Sets `key` to `value`; returns the key's number. */
  set(key: string, value: number): number {
    const table = { chars: this.#chars, starts: this.#starts, slots: this.#slots };
    let k = keyOf(table, key);
    if (k < 0) {
      k = this.#keys++;
      const from = this.#starts[k];
      this.#chars = grown(this.#chars, from + key.length);
      for (let i = 0; i < key.length; i++) this.#chars[from + i] = key.charCodeAt(i);
      this.#starts = grown(this.#starts, k + 2);
      this.#starts[k + 1] = from + key.length;
      this.#values = grown(this.#values, k + 1);
      if (this.#keys * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
      else this.#slots[this.#free(hashOf(key))] = k + 1;
    }
    this.#values[k] = value;
    return k;
  }

  /** The table (the builder is not to be used after). */
  done(): StringTable {
    const keys = this.#keys;
    return { keys, chars: this.#chars.slice(0, this.#starts[keys]), starts: this.#starts.slice(0, keys + 1), values: this.#values.slice(0, keys), slots: this.#slots };
  }

  #free(hash: number): number {
    const mask = this.#slots.length - 1;
    let s = hash & mask;
    while (this.#slots[s] !== 0) s = (s + 1) & mask;
    return s;
  }

  #rehash(size: number): void {
    this.#slots = new Int32Array(size);
    for (let k = 0; k < this.#keys; k++) this.#slots[this.#free(hashAt(this.#chars, this.#starts[k], this.#starts[k + 1]))] = k + 1;
  }
}
