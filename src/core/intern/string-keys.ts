/**
 * Strings numbered 0, 1, 2… in the order first seen, held in a few typed arrays instead of as
 * strings and a `Map`: each string's UTF-16 code units copied once into blocks, found again
 * through an open-addressed hash table (FNV-1a) of key numbers, compared code unit by code unit
 * (exact: two strings never share a key by their hash alone). For the ids of a long session,
 * which as 100k+ strings would sit scattered among the pages of everything read around them.
 * Plain data read and written by functions, so that a table made in a worker crosses to the main
 * thread as a handful of buffers; `IdTable` (check) and `StringTable` (otel) are its faces.
 * @module
 */
import { fnv1a, fnv1aCodes } from "../digest/fnv1a.ts";
import { grown, intAt, intBlocks, type IntBlocks, packInts, pushInt } from "./int-blocks.ts";

/** Code units of a full block of `chars`; a string longer than that has a block of its own. */
const CHAR_BITS = 16;
const CHAR_BLOCK = 1 << CHAR_BITS;

/** The table (plain data: typed arrays and numbers). */
export interface StringKeys {
  /** How many keys. */
  keys: number;
  /** The strings' code units, in blocks; only the last one is still filled. */
  chars: Uint16Array[];
  /** Code units used of the last block. */
  used: number;
  /** By key: where its string starts (block << 16 | offset), -1 for a key without a string. */
  starts: IntBlocks;
  /** By key: its string's length, -1 for a key without a string. */
  lengths: IntBlocks;
  /** Hash slot -> key + 1 (0: free); a power of two, at most half full. */
  slots: Int32Array;
  /** Keys with a string (those in `slots`). */
  strings: number;
}

/**
 * An empty table.
 *
 * @example
 * ```ts
 * const table = stringKeys();
 * keyFor(table, "a1b2c3d4"); // 0
 * keyOf(table, "a1b2c3d4"); // 0
 * keyAt(table, 0); // "a1b2c3d4"
 * ```
 */
export function stringKeys(): StringKeys {
  // Sized for a few hundred keys, as otel's tables (two a session) were: starting smaller (256
  // code units, 64 slots) makes more and smaller arrays, and `otel` of the bench's 2,400 sessions
  // then peaked about 4 MB higher under Bun (by hand, interleaved runs).
  return { keys: 0, chars: [new Uint16Array(1024)], used: 0, starts: intBlocks(), lengths: intBlocks(), slots: new Int32Array(512), strings: 0 };
}

/** The key of `text`, made on first sight. */
export function keyFor(table: StringKeys, text: string): number {
  const slot = slotOf(table, text);
  if (table.slots[slot] !== 0) return table.slots[slot] - 1;
  const key = addKey(table, place(table, text), text.length);
  table.slots[slot] = key + 1;
  // At most half full, so that a search ends at a free slot soon.
  if (++table.strings * 2 > table.slots.length) rehash(table);
  return key;
}

/** A new key without a string (its owner knows what it stands for); no string finds it. */
export function blankKey(table: StringKeys): number {
  return addKey(table, -1, -1);
}

/** The key of `text`, or -1 when it has none. */
export function keyOf(table: StringKeys, text: string): number {
  return table.slots[slotOf(table, text)] - 1;
}

/** Whether `key` has a string (is not blank). */
export function hasString(table: StringKeys, key: number): boolean {
  return intAt(table.lengths, key) >= 0;
}

/** Whether key `key`'s string is `text` (false for a blank key). */
export function keyIs(table: StringKeys, key: number, text: string): boolean {
  const length = intAt(table.lengths, key);
  if (length !== text.length) return false;
  const start = intAt(table.starts, key);
  const block = table.chars[start >>> CHAR_BITS];
  const offset = start & (CHAR_BLOCK - 1);
  for (let i = 0; i < length; i++) if (block[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Key `key`'s string ("" for a blank key). */
export function keyAt(table: StringKeys, key: number): string {
  const length = intAt(table.lengths, key);
  if (length <= 0) return "";
  const start = intAt(table.starts, key);
  const offset = start & (CHAR_BLOCK - 1);
  const chars = table.chars[start >>> CHAR_BITS];
  let text = "";
  // Spread in slices: a long string's code units would be too many arguments at once.
  for (let i = offset; i < offset + length; i += 4096) text += String.fromCharCode(...chars.subarray(i, Math.min(i + 4096, offset + length)));
  return text;
}

/** Cuts the table's last blocks to what they hold (for a table kept or handed over as it is); it can still grow. */
export function packKeys(table: StringKeys): void {
  const last = table.chars.length - 1;
  if (table.used < table.chars[last].length) table.chars[last] = table.chars[last].slice(0, table.used);
  packInts(table.starts);
  packInts(table.lengths);
}

/** The table's typed arrays, each block its own: what hands it to another thread without a copy. */
export function keyArrays(table: StringKeys): ArrayBufferView[] {
  return [...table.chars, ...table.starts.blocks, ...table.lengths.blocks, table.slots];
}

function addKey(table: StringKeys, start: number, length: number): number {
  pushInt(table.starts, start);
  pushInt(table.lengths, length);
  return table.keys++;
}

/** The slot holding `text`'s key, or the free slot where it would go. */
function slotOf(table: StringKeys, text: string): number {
  const slots = table.slots;
  const mask = slots.length - 1;
  for (let slot = fnv1a(text) & mask;; slot = (slot + 1) & mask) {
    const held = slots[slot];
    if (held === 0 || keyIs(table, held - 1, text)) return slot;
  }
}

/** Copies `text` into the blocks; where it starts (block << 16 | offset). */
function place(table: StringKeys, text: string): number {
  if (text.length === 0) return 0;
  const need = table.used + text.length;
  let last = table.chars.length - 1;
  let block = table.chars[last];
  if (need > block.length) {
    if (need <= CHAR_BLOCK) {
      // The first block (or one cut short by `packKeys`), doubled up to a full one.
      let size = Math.max(1024, block.length * 2);
      while (size < need) size *= 2;
      table.chars[last] = block = grown(block, Math.min(size, CHAR_BLOCK));
    } else {
      table.chars.push(block = new Uint16Array(Math.max(CHAR_BLOCK, text.length)));
      table.used = 0;
      last++;
    }
  }
  const start = table.used;
  for (let i = 0; i < text.length; i++) block[start + i] = text.charCodeAt(i);
  table.used += text.length;
  return (last << CHAR_BITS) | start;
}

function rehash(table: StringKeys): void {
  const slots = new Int32Array(table.slots.length * 2);
  const mask = slots.length - 1;
  for (const held of table.slots) {
    if (held === 0) continue;
    const start = intAt(table.starts, held - 1);
    const offset = start & (CHAR_BLOCK - 1);
    let slot = fnv1aCodes(table.chars[start >>> CHAR_BITS], offset, offset + intAt(table.lengths, held - 1)) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = held;
  }
  table.slots = slots;
}
