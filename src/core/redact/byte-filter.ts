/**
 * Where the bytes of a set are in a run of bytes, found 16 at a time by a small WebAssembly
 * module (byte-filter.wat): `scanLine` then looks at those bytes only, instead of looking every
 * byte of a line up in its table, which was half of an HTML export's time. Where WebAssembly or
 * its SIMD instructions are missing there is no filter, and the caller loops over the bytes.
 * @module
 */
import { BYTE_FILTER_WASM } from "./byte-filter-wasm.ts";

/** Bytes handed to the module per call. */
export const FILTER_WINDOW = 64 * 1024;

// The module's memory: the two nibble tables, the window, then one u32 offset per byte of it.
const TABLES = 0;
const INPUT = 64;
const OUTPUT = INPUT + FILTER_WINDOW;
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
 * The module's two tables for the bytes whose entry in `table` is not 0: one bit per high nibble
 * in use, set in `high` for the nibble and in `low` for each low nibble that goes with it. With
 * more than 8 high nibbles in use some share a bit, and the filter finds a few bytes too many.
 */
function nibbleTables(table: Uint8Array): Uint8Array {
  const tables = new Uint8Array(32);
  const bits = new Map<number, number>();
  for (let b = 0; b < 256; b++) {
    if (table[b] === 0) continue;
    const high = b >> 4;
    if (!bits.has(high)) bits.set(high, 1 << (bits.size % 8));
    tables[b & 15] |= bits.get(high)!;
    tables[16 + high] |= bits.get(high)!;
  }
  return tables;
}

const filters = new WeakMap<Uint8Array, ByteFilter>();

/**
 * @example
 * ```ts
 * const table = new Uint8Array(256);
 * table[0x3d] = 1; // "="
 * const filter = ByteFilter.for(table);
 * const bytes = new TextEncoder().encode("a=b, c=d");
 * const count = filter ? filter.find(bytes, 0) : 0; // 2: offsets 1 and 6 in filter.found
 * ```
 */
export class ByteFilter {
  readonly #tables: Uint8Array;
  readonly #loaded: Loaded;

  private constructor(table: Uint8Array, loaded: Loaded) {
    this.#tables = nibbleTables(table);
    this.#loaded = loaded;
  }

  /** The filter for the bytes whose entry in `table` is not 0, or null where there is none. */
  static for(table: Uint8Array): ByteFilter | null {
    const found = filters.get(table);
    if (found) return found;
    const module = load();
    if (module === null) return null;
    const filter = new ByteFilter(table, module);
    filters.set(table, filter);
    return filter;
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
    state.bytes.set(bytes.subarray(from, from + length), INPUT);
    return state.module.candidates(INPUT, length, OUTPUT);
  }
}
