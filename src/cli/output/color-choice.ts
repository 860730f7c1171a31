/**
 * Whether to colour a stream: `--color=always|never|auto` (and `--no-color`) first, then the
 * environment's FORCE_COLOR and NO_COLOR conventions, then whether the stream is a terminal.
 * @module
 */

/** What `--color` accepts; `--no-color` is `never`. */
export const COLOR_WHEN = ["always", "never", "auto"] as const;

/**
 * The choice for one stream. `flag` is the parsed option: undefined or `true` (none given),
 * `false` (`--no-color`) or a `COLOR_WHEN` word. FORCE_COLOR (any value but `0` or `false`)
 * beats NO_COLOR (any non-empty value), as in Node and most colour libraries.
 *
 * @example
 * ```ts
 * colorEnabled({ flag: "auto", env: (name) => (name === "FORCE_COLOR" ? "1" : undefined), isTTY: false }); // true
 * ```
 */
export function colorEnabled(options: { flag: boolean | string | undefined; env: (name: string) => string | undefined; isTTY: boolean }): boolean {
  const { flag, env, isTTY } = options;
  if (flag === false || flag === "never") return false;
  if (flag === "always") return true;
  const force = env("FORCE_COLOR");
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  if (env("NO_COLOR")) return false;
  return isTTY;
}
