/**
 * The session's lines as inert `<script type="application/x-ndjson">` blocks. Every `<` byte
 * is written as the JSON escape `\u003c`, so no block holds a `<` at all: neither `</script`
 * nor `<!--` can occur, whatever the session says, and the HTML parser cannot leave the
 * element. (`<` only occurs inside JSON strings, where `\u003c` means the same.) Lines are
 * copied, not parsed. A block holds about 4 MiB; a longer line runs on into the next block,
 * cut between UTF-8 characters, and the viewer joins blocks before splitting lines.
 * Block buffers are reused, but never the last block returned until another block has been
 * returned and `add` or `finish` called once more: a consumer may write one block while the next
 * is made (`writeOutput` today writes each block before asking for the next).
 * @module
 */

const encoder = new TextEncoder();
const OPEN = encoder.encode('<script type="application/x-ndjson" class="pi-session-data">');
const CLOSE = encoder.encode("</script>\n");
const LESS_THAN = 0x3c;
const ESCAPED = encoder.encode("\\u003c");

export class DataBlocks {
  readonly #size: number;
  #out: Uint8Array;
  #at = OPEN.length;
  /** Buffers handed out by the last call, and buffers free for reuse. */
  #lent: Uint8Array[] = [];
  #spare: Uint8Array[] = [];

  /** `size`: bytes of data per block. */
  constructor(size = 4 * 1024 * 1024) {
    this.#size = size;
    this.#out = this.#fresh();
  }

  /**
   * Adds bytes (whole lines, or a line's end); returns the blocks that filled up (usually
   * none). `hasLessThan: false` from a caller that already scanned the bytes saves a search.
   */
  add(bytes: Uint8Array, hasLessThan = true): Uint8Array[] {
    this.#reclaim();
    const full: Uint8Array[] = [];
    if (!hasLessThan) {
      this.#copy(bytes, 0, bytes.length, full);
      return full;
    }
    let from = 0;
    while (from < bytes.length) {
      const lt = bytes.indexOf(LESS_THAN, from);
      const end = lt === -1 ? bytes.length : lt;
      from = this.#copy(bytes, from, end, full);
      if (from === lt) {
        if (this.#room() < ESCAPED.length) full.push(this.#close());
        this.#out.set(ESCAPED, this.#at);
        this.#at += ESCAPED.length;
        from++;
      }
    }
    return full;
  }

  /** The last block (possibly empty of data, never absent). */
  finish(): Uint8Array {
    this.#reclaim();
    return this.#close();
  }

  /** Every lent buffer but the last one returned becomes free again. */
  #reclaim(): void {
    if (this.#lent.length < 2) return;
    this.#spare.push(...this.#lent.slice(0, -1));
    this.#lent = this.#lent.slice(-1);
  }

  /** Copies bytes[from, end) (no `<` among them), closing blocks as they fill; returns `end`. */
  #copy(bytes: Uint8Array, from: number, end: number, full: Uint8Array[]): number {
    while (from < end) {
      const room = this.#room();
      let take = Math.min(end - from, room);
      // Never cut a UTF-8 character: back up over continuation bytes (10xxxxxx).
      if (take < end - from) while (take > 0 && (bytes[from + take] & 0xc0) === 0x80) take--;
      if (take === 0 && this.#at > OPEN.length) {
        full.push(this.#close());
        continue;
      }
      // A whole empty block of continuation bytes is no character (UTF-8 has at most three in
      // a row): invalid bytes, which decode to U+FFFD alike however they are cut. Cut at the
      // block's end, or the copy would back up to nothing forever.
      if (take === 0) take = room;
      this.#out.set(take === bytes.length ? bytes : bytes.subarray(from, from + take), this.#at);
      this.#at += take;
      from += take;
      if (from < end) full.push(this.#close());
    }
    return end;
  }

  #room(): number {
    return OPEN.length + this.#size - this.#at;
  }

  #fresh(): Uint8Array {
    const reused = this.#spare.pop();
    if (reused) return reused;
    const out = new Uint8Array(OPEN.length + this.#size + CLOSE.length);
    out.set(OPEN);
    return out;
  }

  #close(): Uint8Array {
    const out = this.#out;
    out.set(CLOSE, this.#at);
    const block = out.subarray(0, this.#at + CLOSE.length);
    this.#lent.push(out);
    this.#out = this.#fresh();
    this.#at = OPEN.length;
    return block;
  }
}
