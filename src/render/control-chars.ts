/**
 * Text from session files, made safe to print: ids, names, paths and message text come from
 * the file, and a control character in them (an escape sequence, a bell, a C1 control such as
 * U+009B, which some terminals take for `ESC [`) must never reach the terminal, nor a bidi
 * override or isolate (U+202A–U+202E, U+2066–U+2069), which reorders what follows it on the
 * line so that the text shown is not the text stored. JSON output keeps them, escaped by JSON itself.
 * @module
 */

/** A character `oneLine` replaces, and a run of them. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// deno-lint-ignore no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g;

/**
 * Control characters (newlines, tabs, escapes) and bidi controls as spaces, so one row stays one line.
 *
 * @example
 * ```ts
 * oneLine("a\nb\u001b[31m"); // "a b [31m"
 * ```
 */
export function oneLine(text: string): string {
  // Most texts have none: a test is several times faster than a replace that finds nothing.
  return CONTROL.test(text) ? text.replace(CONTROLS, " ") : text;
}

/**
 * Text with lines kept: CRLF as LF, tabs kept, every other control character (escape
 * sequences too) and every bidi control as `�`.
 *
 * @example
 * ```ts
 * printable("ok\r\n\u0007"); // "ok\n�"
 * ```
 */
export function printable(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/\r\n/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "\uFFFD");
}
