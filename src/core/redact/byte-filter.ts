/**
 * Where the bytes of a set are in a run of bytes, found 16 at a time by a small WebAssembly
 * module (byte-filter.wat): `scanLine` then looks at those bytes only, instead of looking every
 * byte of a line up in its table, which was half of an HTML export's time. Some bytes of the set
 * may be wanted only next to certain others (`y` only after an `e`, say), which leaves most of a
 * text's common letters out. Where WebAssembly or its SIMD instructions are missing there is no
 * filter, and the caller loops over the bytes.
 * @module
 */
import { BYTE_FILTER_WASM } from "./byte-filter-wasm.ts";

/** Bytes handed to the module per call. */
export const FILTER_WINDOW = 64 * 1024;

// The module's memory: five sets' nibble tables, the second look's two byte tables, the window
// (with a byte of the line on either side, and room for reading a whole block of 16 at its end),
// then one u32 offset per byte of it.
const TABLES = 0;
const CHECKED = 256;
const WORD_ENDS = 512;
const INPUT = 1024;
const OUTPUT = INPUT + FILTER_WINDOW + 32;
const MEMORY_BYTES = OUTPUT + 4 * FILTER_WINDOW;

interface FilterModule {
  memory: WebAssembly.Memory;
  candidates(start: number, length: number, out: number): number;
}

interface Loaded {
  module: FilterModule;
  bytes: Uint8Array;
  found: Uint32Array;
  /** The filter whose tables are in memory now. */
  current: ByteFilter | null;
}

let loaded: Loaded | null | undefined;

function load(): Loaded | null {
  if (loaded !== undefined) return loaded;
  try {
    const wasm = Uint8Array.from(atob(BYTE_FILTER_WASM), (c) => c.charCodeAt(0));
    const module = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as FilterModule;
    const pages = Math.ceil((MEMORY_BYTES - module.memory.buffer.byteLength) / 65536);
    if (pages > 0) module.memory.grow(pages);
    // The memory never grows again, so these views stay valid.
    const { buffer } = module.memory;
    loaded = { module, bytes: new Uint8Array(buffer), found: new Uint32Array(buffer, OUTPUT, FILTER_WINDOW), current: null };
  } catch {
    // No WebAssembly here, or one without SIMD.
    loaded = null;
  }
  return loaded;
}

/**
 * The two nibble tables of a set of bytes (32 bytes: low, then high): one bit per high nibble in
 * use, set in `high` for the nibble and in `low` for each low nibble that goes with it. With more
 * than 8 high nibbles in use some share a bit, and the filter finds a few bytes too many.
 */
function nibbleTables(inSet: (b: number) => boolean): Uint8Array {
  const tables = new Uint8Array(32);
  const bits = new Map<number, number>();
  for (let b = 0; b < 256; b++) {
    if (!inSet(b)) continue;
    const high = b >> 4;
    if (!bits.has(high)) bits.set(high, 1 << (bits.size % 8));
    tables[b & 15] |= bits.get(high)!;
    tables[16 + high] |= bits.get(high)!;
  }
  return tables;
}

/** The high nibbles of a list of bytes. */
const highNibbles = (list: readonly number[]) => new Set(list.map((b) => b >> 4)).size;

/**
 * Bytes of a filter's set that count only next to certain others. A list of `afterOnly` or
 * `beforeOnly` bytes of more than 8 high nibbles cannot be told apart exactly, and is left out
 * (its bytes then count anywhere).
 */
export interface ByteNeighbours {
  /** These count only right after one of `previous`. */
  afterOnly?: readonly number[];
  previous?: readonly number[];
  /** These count only right before one of `next`. */
  beforeOnly?: readonly number[];
  next?: readonly number[];
}

/**
 * The second look (byte-filter.wat's `$may_hit`) for a secret scan: of the bytes `-`, `=`, `A`,
 * `b` and `B`, those in `anchors` count only beside what a secret rule needs there (`sk-`,
 * `NAME=`, `AKIA`, `bearer`, …). `wordEnds`: the last bytes of the names before a `=`.
 */
export interface AnchorChecks {
  anchors: readonly number[];
  wordEnds: readonly number[];
}

/** The bytes the second look knows. */
export const CHECKED_ANCHORS: readonly number[] = [0x2d, 0x3d, 0x41, 0x62, 0x42];

/**
 * @example
 * ```ts
 * const table = new Uint8Array(256);
 * table[0x3d] = 1; // "="
 * const filter = ByteFilter.create(table);
 * const bytes = new TextEncoder().encode("a=b, c=d");
 * const count = filter ? filter.find(bytes, 0) : 0; // 2: offsets 1 and 6 in filter.found
 * ```
 */
export class ByteFilter {
  readonly #tables: Uint8Array;
  readonly #loaded: Loaded;

  private constructor(tables: Uint8Array, loaded: Loaded) {
    this.#tables = tables;
    this.#loaded = loaded;
  }

  /**
   * The filter for the bytes whose entry in `table` is not 0, those in `neighbours` only next to
   * the bytes it names; null where there is no WebAssembly SIMD.
   */
  static create(table: Uint8Array, neighbours: ByteNeighbours = {}, checks?: AnchorChecks): ByteFilter | null {
    const module = load();
    if (module === null) return null;
    const among = (list: readonly number[] = []) => (b: number) => list.includes(b);
    // A table that finds too many of these would drop bytes of the set: only exact ones are used.
    const only = (list: readonly number[] = []) => among(highNibbles(list) <= 8 ? list : []);
    const tables = new Uint8Array(INPUT - 1);
    tables.set(nibbleTables((b) => table[b] !== 0), 0);
    tables.set(nibbleTables(only(neighbours.afterOnly)), 32);
    tables.set(nibbleTables(among(neighbours.previous)), 64);
    tables.set(nibbleTables(only(neighbours.beforeOnly)), 96);
    tables.set(nibbleTables(among(neighbours.next)), 128);
    for (const b of checks?.anchors ?? []) if (CHECKED_ANCHORS.includes(b)) tables[CHECKED + b] = 1;
    for (const b of checks?.wordEnds ?? []) tables[WORD_ENDS + b] = 1;
    return new ByteFilter(tables, module);
  }

  /** Offsets from `from` of what the last `find` found (valid until the next `find` of any filter). */
  get found(): Uint32Array {
    return this.#loaded.found;
  }

  /**
   * Finds the bytes of the set in `bytes[from, from + FILTER_WINDOW)` (or to the end); returns how
   * many there are. Their offsets from `from`, in order, are then the first entries of `found`.
   */
  find(bytes: Uint8Array, from: number): number {
    const state = this.#loaded;
    if (state.current !== this) {
      state.bytes.set(this.#tables, TABLES);
      state.current = this;
    }
    const length = Math.min(FILTER_WINDOW, bytes.length - from);
    if (length <= 0) return 0;
    // The bytes on either side of the window, for the neighbour sets (0 past the line's ends).
    state.bytes[INPUT - 1] = from > 0 ? bytes[from - 1] : 0;
    state.bytes.set(bytes.subarray(from, from + length), INPUT);
    state.bytes[INPUT + length] = from + length < bytes.length ? bytes[from + length] : 0;
    return state.module.candidates(INPUT, length, OUTPUT);
  }
}
