/**
 * A map from strings to non-negative integers held in a few typed arrays, for the index of a long
 * session (span-index.ts): the 1.2 GB bench session's 146,765 entry ids and their tool call ids
 * held as strings in `Map`s cost about 20 MB, and were copied again when a worker handed the index
 * over. The keys are interned strings (`StringKeys`, core/intern), with a value per key beside
 * them; plain data once `done`, so that it crosses to another thread as a handful of buffers.
 * @module
 */
import { intAt, intBlocks, type IntBlocks, keyFor, keyOf, packInts, packKeys, pushInt, setInt, type StringKeys, stringKeys } from "../core/intern/mod.ts";

export { keyAt, keyOf } from "../core/intern/mod.ts";

/** The finished table (plain data: typed arrays and numbers): the keys, and a value per key. */
export interface StringTable extends StringKeys {
  /** Each key's value, by key number. */
  values: IntBlocks;
}

/** The value of `key` in `table`, or undefined. */
export function valueOf(table: StringTable, key: string): number | undefined {
  const k = keyOf(table, key);
  return k < 0 ? undefined : intAt(table.values, k);
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
  readonly #table: StringTable = { ...stringKeys(), values: intBlocks() };

  /** Sets `key` to `value`; returns the key's number (the order it was first set in). */
  set(key: string, value: number): number {
    const k = keyFor(this.#table, key);
    if (k === this.#table.values.length) pushInt(this.#table.values, value);
    else setInt(this.#table.values, k, value);
    return k;
  }

  /** The table, its arrays cut to what they hold (the builder is not to be used after). */
  done(): StringTable {
    packKeys(this.#table);
    packInts(this.#table.values);
    return this.#table;
  }
}
