/**
 * 32-bit integers in blocks: past the first block (which starts small and doubles) a list grows
 * by adding a block, never by copying what it holds, so no old copy lingers until collected.
 * Plain data (`IntBlocks`, read and written by functions) so that it crosses to another thread;
 * `IntList` is the same as a class, for code that keeps one to itself.
 * @module
 */

/** Elements of a full block. */
const BLOCK_BITS = 14;
const BLOCK = 1 << BLOCK_BITS;
/** Elements of a first block (see `stringKeys` for why not fewer). */
const FIRST = 256;

/** Integers 0…length-1 across blocks of 2^14 (the last one may be shorter). */
export interface IntBlocks {
  blocks: Int32Array[];
  length: number;
}

/** An empty list. */
export function intBlocks(): IntBlocks {
  return { blocks: [new Int32Array(FIRST)], length: 0 };
}

/** Adds `value` at the end of `list`. */
export function pushInt(list: IntBlocks, value: number): void {
  const b = list.length >>> BLOCK_BITS;
  const at = list.length & (BLOCK - 1);
  let block = list.blocks[b];
  if (block === undefined) list.blocks.push(block = new Int32Array(BLOCK));
  else if (at === block.length) list.blocks[b] = block = grown(block, Math.min(BLOCK, Math.max(FIRST, block.length * 2)));
  block[at] = value;
  list.length++;
}

/** Element `i` of `list` (`i` < its length). */
export function intAt(list: IntBlocks, i: number): number {
  return list.blocks[i >>> BLOCK_BITS][i & (BLOCK - 1)];
}

/** Sets element `i` of `list` (`i` < its length). */
export function setInt(list: IntBlocks, i: number, value: number): void {
  list.blocks[i >>> BLOCK_BITS][i & (BLOCK - 1)] = value;
}

/** Cuts `list`'s last block to what it holds (for a list kept or handed over as it is); it can still grow. */
export function packInts(list: IntBlocks): void {
  const last = list.blocks.length - 1;
  const used = list.length - (last << BLOCK_BITS);
  if (used < list.blocks[last].length) list.blocks[last] = list.blocks[last].slice(0, used);
}

/** A copy of `data` in an array of `size` elements. */
export function grown<T extends Int32Array | Uint16Array>(data: T, size: number): T {
  const bigger = new (data.constructor as new (size: number) => T)(size);
  bigger.set(data);
  return bigger;
}

/**
 * `IntBlocks` as an object with methods.
 *
 * @example
 * ```ts
 * const list = new IntList();
 * list.push(7);
 * list.at(0); // 7
 * ```
 */
export class IntList {
  readonly #list = intBlocks();

  get length(): number {
    return this.#list.length;
  }

  push(value: number): void {
    pushInt(this.#list, value);
  }

  at(i: number): number {
    return intAt(this.#list, i);
  }

  set(i: number, value: number): void {
    setInt(this.#list, i, value);
  }
}
