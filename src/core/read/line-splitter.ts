/**
 * Cuts a byte stream into lines without ever holding more than the current line,
 * so a 1 GB session reads in bounded memory. Bytes stay bytes: decoding is the caller's.
 * @module
 */

/**
 * One line of the input, without its `\n`. `offset` is the byte offset of its first byte.
 * `bytes` is only valid during the callback: copy it to keep it.
 */
export interface RawLine {
  bytes: Uint8Array;
  /** 1-based line number. */
  number: number;
  offset: number;
  /** False only for a last line that the file does not end with `\n`. */
  terminated: boolean;
}

const NEWLINE = 0x0a;

/**
 * A push parser: feed chunks with `push`, then call `end`; each complete line goes to `onLine`.
 *
 * @example Split two chunks
 * ```ts
 * const lines: string[] = [];
 * const splitter = new LineSplitter((line) => lines.push(new TextDecoder().decode(line.bytes)));
 * splitter.push(new TextEncoder().encode("a\nb"));
 * splitter.push(new TextEncoder().encode("c\n"));
 * splitter.end(); // lines = ["a", "bc"]
 * ```
 */
export class LineSplitter {
  #onLine: (line: RawLine) => void;
  #carry: Uint8Array[] = [];
  #carryLength = 0;
  #lineNumber = 0;
  #offset = 0;

  constructor(onLine: (line: RawLine) => void) {
    this.#onLine = onLine;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) {
        // Copy: the caller may reuse `chunk` for the next push. (Not `chunk.slice`: a chunk
        // may be a subclass, such as Node's Buffer, whose `slice` does not copy.)
        this.#carry.push(new Uint8Array(chunk.subarray(start)));
        this.#carryLength += chunk.length - start;
        return;
      }
      this.#emit(this.#take(chunk.subarray(start, newline)), true);
      start = newline + 1;
    }
  }

  end(): void {
    if (this.#carryLength > 0) this.#emit(this.#take(new Uint8Array(0)), false);
  }

  #take(tail: Uint8Array): Uint8Array {
    if (this.#carry.length === 0) return tail;
    const bytes = new Uint8Array(this.#carryLength + tail.length);
    let at = 0;
    for (const piece of this.#carry) {
      bytes.set(piece, at);
      at += piece.length;
    }
    bytes.set(tail, at);
    this.#carry = [];
    this.#carryLength = 0;
    return bytes;
  }

  #emit(bytes: Uint8Array, terminated: boolean): void {
    this.#lineNumber++;
    const line = { bytes, number: this.#lineNumber, offset: this.#offset, terminated };
    this.#offset += bytes.length + (terminated ? 1 : 0);
    this.#onLine(line);
  }
}
