/**
 * Masking one raw JSON line of a session file: parsed, masked value by value (image data
 * untouched), written back. A line that is not JSON is masked as plain text.
 * @module
 */
import type { Redactor } from "../core/redact/redactor.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * The line's bytes with secrets masked; the same array when nothing changed.
 *
 * @example
 * ```ts
 * // redactLine(new TextEncoder().encode('{"t":"sk-…"}'), new Redactor())
 * ```
 */
export function redactLine(line: Uint8Array, redactor: Redactor): Uint8Array {
  const text = decoder.decode(line);
  const before = redactor.total;
  let out: string;
  try {
    out = JSON.stringify(redactor.value(JSON.parse(text)));
  } catch {
    out = redactor.text(text);
  }
  return redactor.total === before ? line : encoder.encode(out);
}
