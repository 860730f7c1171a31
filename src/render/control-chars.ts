/**
 * Text from session files, made safe to print: ids, names, paths and message text come from
 * the file, and a control character in them (an escape sequence, a bell) must never reach the
 * terminal. JSON output keeps them, escaped by JSON itself.
 * @module
 */

/**
 * Control characters (newlines, tabs, escapes) as spaces, so one row stays one line.
 *
 * @example
 * ```ts
 * oneLine("a\nb\u001b[31m"); // "a b [31m"
 * ```
 */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ");
}

/**
 * Text with lines kept: CRLF as LF, tabs kept, every other control character (escape
 * sequences too) as `�`.
 *
 * @example
 * ```ts
 * printable("ok\r\n\u0007"); // "ok\n�"
 * ```
 */
export function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\r\n/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "\uFFFD");
}
