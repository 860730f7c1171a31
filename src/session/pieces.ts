/**
 * Output made a line at a time and handed on in pieces of about a megabyte, from buffers filled
 * again and again: a writer of a gigabyte (a branched session, a migrated one) makes no garbage
 * of its own output.
 * @module
 */

/** Output is handed on in pieces of about this size, in one buffer filled again for each. */
const PIECE = 1024 * 1024;
const encoder = new TextEncoder();

/**
 * Text encoded into buffers of `PIECE` bytes, handed on as each fills: `ready` are the pieces to
 * hand on; once they are handed on (the writer is done with a piece before it asks for the
 * next), `release` makes their buffers free to fill again.
 */
export class Pieces {
  #buffer: Uint8Array = new Uint8Array(PIECE);
  #length = 0;
  #handedOn: Uint8Array[] = [];
  #free: Uint8Array[] = [];
  readonly ready: Uint8Array[] = [];

  add(text: string): void {
    // A character takes at most 3 bytes; a long line goes out as a piece of its own.
    if (this.#length + text.length * 3 > PIECE) {
      this.flush();
      if (text.length * 3 > PIECE) {
        this.ready.push(encoder.encode(text));
        return;
      }
    }
    this.#length += encoder.encodeInto(text, this.#buffer.subarray(this.#length)).written;
  }

  /** Bytes as they are: copied, or for a long line handed on as its own piece (valid until the next read). */
  addBytes(bytes: Uint8Array): void {
    if (this.#length + bytes.length > PIECE) {
      this.flush();
      if (bytes.length > PIECE) {
        this.ready.push(bytes);
        return;
      }
    }
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  flush(): void {
    if (this.#length === 0) return;
    this.ready.push(this.#buffer.subarray(0, this.#length));
    this.#handedOn.push(this.#buffer);
    this.#buffer = this.#free.pop() ?? new Uint8Array(PIECE);
    this.#length = 0;
  }

  /** The pieces in `ready` were handed on: clears it, and their buffers may be filled again. */
  release(): void {
    this.ready.length = 0;
    this.#free.push(...this.#handedOn);
    this.#handedOn = [];
  }
}

