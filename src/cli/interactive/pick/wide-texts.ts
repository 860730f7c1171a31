/**
 * Texts with characters past U+00FF kept as UTF-8 in shared blocks: JavaScriptCore holds such a
 * string two bytes a character, though most of its characters are ASCII (a first message with
 * one "日本語" in it). The picker keeps the first message of each of its rows (25,000 in the scale
 * bench, 17,700 of them with such a character), and draws only the few on screen.
 * @module
 */

/** Bytes of a block; a text that long or longer (in UTF-8) is not kept here. */
const BLOCK = 1 << 16;
/** A surrogate not in a pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * @example
 * ```ts
 * const texts = new WideTexts();
 * const at = texts.add("fix the 日本語 parser")!;
 * texts.text(at); // "fix the 日本語 parser"
 * ```
 */
export class WideTexts {
  readonly #blocks: Uint8Array[] = [];
  #used = BLOCK;
  readonly #encoder = new TextEncoder();
  // A leading U+FEFF is the text's own character, not a byte order mark to drop.
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /**
   * Keeps `text` and returns where it is (a number for `text`), or undefined for a text this
   * does not keep (the caller keeps that one as it is): one too long for a block, or with a
   * lone surrogate (UTF-8 cannot hold it).
   */
  add(text: string): number | undefined {
    if (LONE_SURROGATE.test(text)) return undefined;
    // At most three bytes a UTF-16 code unit: a text is encoded twice only when that may not fit.
    let bytes: Uint8Array | undefined;
    let room = text.length * 3;
    if (room >= BLOCK) {
      bytes = this.#encoder.encode(text);
      if (bytes.length >= BLOCK) return undefined;
      room = bytes.length;
    }
    if (this.#used + room > BLOCK) {
      this.#blocks.push(new Uint8Array(BLOCK));
      this.#used = 0;
    }
    const index = this.#blocks.length - 1;
    const block = this.#blocks[index];
    const at = this.#used;
    let length: number;
    if (bytes) {
      block.set(bytes, at);
      length = bytes.length;
    } else {
      length = this.#encoder.encodeInto(text, block.subarray(at)).written;
    }
    this.#used += length;
    return (index * BLOCK + at) * BLOCK + length;
  }

  /** The text kept at `at` (what `add` returned). */
  text(at: number): string {
    const length = at % BLOCK;
    const start = Math.floor(at / BLOCK);
    const block = this.#blocks[Math.floor(start / BLOCK)];
    const offset = start % BLOCK;
    return this.#decoder.decode(block.subarray(offset, offset + length));
  }
}
