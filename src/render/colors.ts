/**
 * The few ANSI styles the CLI draws with. Our own, not a colour library: the usual ones read
 * `process.stdout` when they load to guess a default, and in the compiled binary that first
 * touch builds Bun's stream machinery, about 10 ms of every command's start-up. Whether to
 * colour is decided by the caller (the CLI from its flags and terminal, a server per request) anyway.
 * @module
 */

/** A style: wraps text in its escape codes (or returns it as it is when colours are off). */
export type Style = (text: unknown) => string;

/** The styles, on or off together. */
export interface Colors {
  readonly isColorSupported: boolean;
  readonly bold: Style;
  readonly dim: Style;
  readonly italic: Style;
  readonly underline: Style;
  readonly inverse: Style;
  readonly red: Style;
  readonly green: Style;
  readonly yellow: Style;
  readonly blue: Style;
  readonly magenta: Style;
  readonly cyan: Style;
  readonly gray: Style;
}

/**
 * A style opening with `open` and ending with `close`. A `close` already in the text (a nested
 * style ended there) becomes `resume`, so that this style goes on after the nested one: a
 * colour simply opens again; bold and dim share their end code, so they end and re-open.
 */
function style(open: string, close: string, resume = open): Style {
  return (text) => {
    const s = String(text);
    return open + (s.includes(close) ? s.replaceAll(close, resume) : s) + close;
  };
}

const plain: Style = (text) => String(text);

/**
 * The styles, coloured when `enabled`.
 *
 * @example
 * ```ts
 * createColors(true).bold("x");  // "\x1b[1mx\x1b[22m"
 * createColors(false).bold("x"); // "x"
 * ```
 */
export function createColors(enabled: boolean): Colors {
  const sgr = (code: number) => `\x1b[${code}m`;
  const s = (open: number, close: number, reopen = false) =>
    enabled ? style(sgr(open), sgr(close), reopen ? sgr(close) + sgr(open) : sgr(open)) : plain;
  return {
    isColorSupported: enabled,
    bold: s(1, 22, true),
    dim: s(2, 22, true),
    italic: s(3, 23),
    underline: s(4, 24),
    inverse: s(7, 27),
    red: s(31, 39),
    green: s(32, 39),
    yellow: s(33, 39),
    blue: s(34, 39),
    magenta: s(35, 39),
    cyan: s(36, 39),
    gray: s(90, 39),
  };
}
