/**
 * The rest of a JSON string literal, from a character boundary inside it: where its closing
 * quote is and whether the text up to there is clean (valid escapes, no control bytes, valid
 * UTF-8). `skimLine` asks this of every long string, which is most of a session's bytes: a small
 * WebAssembly module (string-scan.wat) skips plain ASCII 16 bytes at a time, about ten times as
 * fast as looking at each byte in JavaScript. Where WebAssembly or its SIMD instructions are
 * missing, `stringTailJs` gives the same answers byte by byte.
 * @module
 */
import { STRING_SCAN_WASM } from "./string-scan-wasm.ts";

/** Where a string ends (the index of its closing quote, -1 when the bytes end first), and whether it is clean. */
export interface StringTail {
  end: number;
  clean: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

function isContinuation(b: Uint8Array, i: number): boolean {
  return i < b.length && (b[i] & 0xc0) === 0x80;
}

/** Length of the UTF-8 sequence starting at `i` when valid (no overlongs or surrogates), else 0. */
export function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c >= 0xc2 && c <= 0xdf) return isContinuation(b, i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!isContinuation(b, i + 1) || !isContinuation(b, i + 2)) return 0;
    const c1 = b[i + 1];
    if ((c === 0xe0 && c1 < 0xa0) || (c === 0xed && c1 > 0x9f)) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!isContinuation(b, i + 1) || !isContinuation(b, i + 2) || !isContinuation(b, i + 3)) return 0;
    const c1 = b[i + 1];
    if ((c === 0xf0 && c1 < 0x90) || (c === 0xf4 && c1 > 0x8f)) return 0;
    return 4;
  }
  return 0;
}

/**
 * The index just past the character (or escape) at `i` of a string literal, and whether it is
 * clean; `i` must not hold the closing quote.
 */
export function stepChar(b: Uint8Array, i: number): { next: number; clean: boolean } {
  const c = b[i];
  if (c === BACKSLASH) {
    const n = b[i + 1];
    if (n === 0x75) return { next: i + 6, clean: isHex(b[i + 2]) && isHex(b[i + 3]) && isHex(b[i + 4]) && isHex(b[i + 5]) };
    return { next: i + 2, clean: n !== undefined && ESCAPES.has(n) };
  }
  if (c < 0x80) return { next: i + 1, clean: c >= 0x20 };
  const len = utf8Length(b, i);
  return len === 0 ? { next: i + 1, clean: false } : { next: i + len, clean: true };
}

/** `stringTail` byte by byte in JavaScript (where there is no WebAssembly SIMD, and in tests). */
export function stringTailJs(b: Uint8Array, from: number): StringTail {
  let clean = true;
  let i = from;
  while (i < b.length) {
    const c = b[i];
    if (c === QUOTE) return { end: i, clean };
    if (c > 0x20 && c < 0x7f && c !== BACKSLASH) {
      i++;
      continue;
    }
    const step = stepChar(b, i);
    if (!step.clean) clean = false;
    i = step.next;
  }
  return { end: -1, clean: false };
}

interface ScanModule {
  memory: WebAssembly.Memory;
  scan(from: number, limit: number): number;
}

/** Bytes of a line the module holds at a time (more are copied in as the scan reaches them). */
export const SCAN_WINDOW = 64 * 1024;
/** Where the window starts in the module's memory (its tables come first). */
const WINDOW_AT = 512;

/**
 * The module with a window of one line in its memory: a line's later strings reuse the window
 * its first one copied, so each byte of a line is copied into the module about once.
 */
export class WasmStringScanner {
  readonly #scan: ScanModule["scan"];
  readonly #memory: Uint8Array;
  readonly #window: number;
  #line: Uint8Array | null = null;
  #start = 0;
  #length = 0;

  private constructor(module: ScanModule, window: number) {
    this.#scan = module.scan;
    this.#window = window;
    const bytes = WINDOW_AT + window + 32;
    const pages = Math.ceil((bytes - module.memory.buffer.byteLength) / 65536);
    if (pages > 0) module.memory.grow(pages);
    // The memory never grows again, so this view stays valid.
    this.#memory = new Uint8Array(module.memory.buffer);
  }

  /** A scanner, or null where there is no WebAssembly SIMD. `window`: bytes per copy (tests make it small). */
  static create(window = SCAN_WINDOW): WasmStringScanner | null {
    try {
      const wasm = Uint8Array.from(atob(STRING_SCAN_WASM), (c) => c.charCodeAt(0));
      const module = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports as unknown as ScanModule;
      return new WasmStringScanner(module, window);
    } catch {
      return null;
    }
  }

  /** Forgets the window: call when the bytes of the line given before may have changed. */
  reset(): void {
    this.#line = null;
  }

  /** The rest of the string literal of `b` whose text goes on at `from` (see the module comment). */
  tail(b: Uint8Array, from: number): StringTail {
    let dirty = 0;
    let at = from;
    while (at < b.length) {
      if (this.#line !== b || at < this.#start || at >= this.#start + this.#length) this.#load(b, at);
      const result = this.#scan(at - this.#start, this.#length);
      dirty |= result & 1;
      at = this.#start + (result >>> 2);
      if (result & 2) return { end: at, clean: dirty === 0 };
    }
    return { end: -1, clean: false };
  }

  /** Copies `b[at, at + window)` to the module, with the 16 bytes after it (0 past the line's end). */
  #load(b: Uint8Array, at: number): void {
    const length = Math.min(this.#window, b.length - at);
    const copied = Math.min(length + 16, b.length - at);
    this.#memory.set(b.subarray(at, at + copied), WINDOW_AT);
    if (copied < length + 16) this.#memory.fill(0, WINDOW_AT + copied, WINDOW_AT + length + 16);
    this.#line = b;
    this.#start = at;
    this.#length = length;
  }
}

/**
 * A reader's scan: the WebAssembly module where there is one, else the byte loop (the same
 * answers). The module is made at the first string scanned, not when the reader's module is
 * loaded: making it took 5-6 ms of every start of the binary (Bun 1.4.5), `--help` and a warm
 * `list` included, which scan no string.
 */
export class LazyStringScan {
  #scanner: WasmStringScanner | null | undefined;

  /** `tail`, as a function of its own (a reader passes it on as its `TailScan`). */
  readonly tail = (b: Uint8Array, from: number): StringTail => {
    if (this.#scanner === undefined) this.#scanner = WasmStringScanner.create();
    return this.#scanner ? this.#scanner.tail(b, from) : stringTailJs(b, from);
  };

  /** Forgets the window (see `WasmStringScanner.reset`). */
  reset(): void {
    this.#scanner?.reset();
  }
}
