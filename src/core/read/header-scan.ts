/**
 * A bounded look at the start of a file: the header line, read in chunks, never more
 * than 1 MiB. Discovery (finding sessions by id, `@`, `recent`) uses it on every file.
 * @module
 */
import { decodeLine, isHeader } from "./decode-line.ts";
import type { SessionHeader } from "../format/types.ts";
import { LineSplitter } from "./line-splitter.ts";

/** How far the scan reads before giving up. */
export const HEADER_SCAN_LIMIT = 1024 * 1024;

/**
 * Feed chunks until `done`; then `header` is the header, or null when the first parsed
 * line is not one (or none was found within the limit).
 *
 * @example
 * ```ts
 * const scan = new HeaderScan();
 * scan.push(new TextEncoder().encode('{"type":"session","id":"s","timestamp":"t","cwd":"/"}\n'));
 * scan.header?.id; // "s"
 * ```
 */
export class HeaderScan {
  header: SessionHeader | null = null;
  done = false;
  #bytes = 0;
  #splitter = new LineSplitter((line) => {
    if (this.done) return;
    const decoded = decodeLine(line, { bom: false, crlf: false }, []);
    if (decoded.kind !== "value") return;
    this.done = true;
    if (isHeader(decoded.value)) this.header = decoded.value as SessionHeader;
  });

  push(chunk: Uint8Array): void {
    if (this.done) return;
    this.#bytes += chunk.length;
    this.#splitter.push(chunk);
    if (!this.done && this.#bytes > HEADER_SCAN_LIMIT) this.done = true;
  }

  end(): SessionHeader | null {
    if (!this.done) this.#splitter.end();
    this.done = true;
    return this.header;
  }
}
