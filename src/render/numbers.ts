/**
 * Numbers for people: thousands separated by commas, as `toLocaleString("en-US")` writes them.
 * @module
 */

/** Three digits before the end or before the next group, not at the start. */
const GROUP = /\B(?=(\d{3})+$)/g;

/**
 * `n` with its thousands separated, e.g. `7,526,331`. Whole numbers (what token counts are) are
 * grouped here: the first `toLocaleString` call of a process loads the locale data, which costs
 * more than a small command's work. Anything else goes to `toLocaleString("en-US")` itself.
 *
 * @example
 * ```ts
 * groupDigits(-1234567); // "-1,234,567"
 * ```
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  // -0 too, as toLocaleString writes it.
  return n < 0 || Object.is(n, -0) ? "-" + String(-n).replace(GROUP, ",") : String(n).replace(GROUP, ",");
}
