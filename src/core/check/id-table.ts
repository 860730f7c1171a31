/**
 * Entry ids as numbers, for a session of 100k+ entries: each id string is copied once into
 * blocks of UTF-16 code units and found again through a hash table of integers, instead of
 * 100k+ strings and a `Map` of them left scattered among the pages of everything read around
 * them (the engine can then give none of those pages back). Values that are not strings (a
 * number, `null`, an object where an id belongs) are rare and kept as they are.
 * @module
 */
import { fnv1a as hash, fnv1aCodes as hashOf } from "../digest/fnv1a.ts";

/** Elements of a block of `IntList`, code units of a block of `IdTable`'s strings. */
const BLOCK_BITS = 14;
const BLOCK = 1 << BLOCK_BITS;
const CHAR_BITS = 16;
const CHAR_BLOCK = 1 << CHAR_BITS;

/**
 * An array of 32-bit integers that grows in blocks: no copy of what it holds (whose old
 * copies would linger until collected) once past the first block, which starts small.
 */
export class IntList {
  readonly #blocks: Int32Array[] = [new Int32Array(64)];
  length = 0;

  push(value: number): void {
    const at = this.length & (BLOCK - 1);
    let block = this.#blocks[this.length >>> BLOCK_BITS];
    if (block === undefined) this.#blocks.push(block = new Int32Array(BLOCK));
    else if (at === block.length) this.#blocks[0] = block = grown(block, block.length * 2);
    block[at] = value;
    this.length++;
  }

  at(i: number): number {
    return this.#blocks[i >>> BLOCK_BITS][i & (BLOCK - 1)];
  }

  set(i: number, value: number): void {
    this.#blocks[i >>> BLOCK_BITS][i & (BLOCK - 1)] = value;
  }
}

/** A copy of `data` in a bigger array. */
function grown<T extends Int32Array | Uint16Array>(data: T, size: number): T {
  const bigger = new (data.constructor as new (size: number) => T)(size);
  bigger.set(data);
  return bigger;
}

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
  /** The strings' code units, in blocks (a string longer than a block has one of its own). */
  readonly #chars: Uint16Array[] = [new Uint16Array(256)];
  /** Code units used of the last block. */
  #used = 0;
  /** By key: where its string starts (block << CHAR_BITS | offset), and its length (-1: not a string). */
  readonly #start = new IntList();
  readonly #length = new IntList();
  /** Open addressing: key + 1 of a string, 0 for a free slot. */
  #slots = new Int32Array(64);
  #strings = 0;
  /** Values that are not strings, and their keys. */
  readonly #others = new Map<unknown, number>();
  readonly #otherValues = new Map<number, unknown>();

  /** How many keys there are. */
  get size(): number {
    return this.#start.length;
  }

  /** The key of `value`, made on first sight. */
  key(value: unknown): number {
    if (typeof value === "string") return this.#keyOfString(value);
    const known = isObject(value) ? undefined : this.#others.get(value);
    if (known !== undefined) return known;
    const key = this.#add(-1, -1);
    if (!isObject(value)) this.#others.set(value, key);
    this.#otherValues.set(key, value);
    return key;
  }

  /** The key of `value`, or -1 when it has none. */
  find(value: unknown): number {
    if (typeof value === "string") {
      const slot = this.#slotOf(value);
      return this.#slots[slot] - 1;
    }
    return isObject(value) ? -1 : this.#others.get(value) ?? -1;
  }

  /** The value of a key, as it was given. */
  value(key: number): unknown {
    const length = this.#length.at(key);
    if (length < 0) return this.#otherValues.get(key);
    const chars = this.#charsOf(key, length);
    let text = "";
    for (let i = 0; i < length; i += 4096) text += String.fromCharCode(...chars.subarray(i, Math.min(i + 4096, length)));
    return text;
  }

  /** Whether a key's value is a string. */
  isString(key: number): boolean {
    return this.#length.at(key) >= 0;
  }

  /** Whether key `key` is the string `text`. */
  is(key: number, text: string): boolean {
    const length = this.#length.at(key);
    if (length !== text.length) return false;
    const start = this.#start.at(key);
    const block = this.#chars[start >>> CHAR_BITS];
    const offset = start & (CHAR_BLOCK - 1);
    for (let i = 0; i < length; i++) if (block[offset + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /** A string key's code units. */
  #charsOf(key: number, length: number): Uint16Array {
    const start = this.#start.at(key);
    const offset = start & (CHAR_BLOCK - 1);
    return this.#chars[start >>> CHAR_BITS].subarray(offset, offset + length);
  }

  /** Copies `text` into the blocks; where it starts. */
  #place(text: string): number {
    let block = this.#chars[this.#chars.length - 1];
    if (this.#used + text.length > block.length) {
      if (this.#chars.length === 1 && block.length < CHAR_BLOCK && this.#used + text.length <= CHAR_BLOCK) {
        let size = block.length * 2;
        while (size < this.#used + text.length) size *= 2;
        this.#chars[0] = block = grown(block, size);
      } else {
        this.#chars.push(block = new Uint16Array(Math.max(CHAR_BLOCK, text.length)));
        this.#used = 0;
      }
    }
    const start = this.#used;
    for (let i = 0; i < text.length; i++) block[start + i] = text.charCodeAt(i);
    this.#used += text.length;
    return ((this.#chars.length - 1) << CHAR_BITS) | start;
  }

  #keyOfString(text: string): number {
    const slot = this.#slotOf(text);
    if (this.#slots[slot] !== 0) return this.#slots[slot] - 1;
    const key = this.#add(this.#place(text), text.length);
    this.#slots[slot] = key + 1;
    // At most half full, so a search always ends at a free slot soon.
    if (++this.#strings * 2 > this.#slots.length) this.#rehash();
    return key;
  }

  #add(start: number, length: number): number {
    this.#start.push(start);
    this.#length.push(length);
    return this.#start.length - 1;
  }

  /** The slot holding `text`, or the free slot where it would go. */
  #slotOf(text: string): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash(text) & mask;; slot = (slot + 1) & mask) {
      const held = this.#slots[slot];
      if (held === 0 || this.is(held - 1, text)) return slot;
    }
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (const held of this.#slots) {
      if (held === 0) continue;
      const start = this.#start.at(held - 1);
      const offset = start & (CHAR_BLOCK - 1);
      let slot = hashOf(this.#chars[start >>> CHAR_BITS], offset, offset + this.#length.at(held - 1)) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = held;
    }
    this.#slots = slots;
  }
}

