/**
 * Sizes for people and from them: `45.2 MB` out, `50MB` / `1.5G` / `700k` in. Units are
 * powers of 1024, as `du -h` and `find -size` count them.
 * @module
 */

const UNITS = ["B", "KB", "MB", "GB", "TB"];

/**
 * `bytes` with one decimal in the largest unit that keeps it at 1 or more.
 *
 * @example
 * ```ts
 * formatBytes(47_400_000); // "45.2 MB"
 * ```
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * Bytes from `50MB`, `1.5G`, `700k`, `2 GiB` or a plain number; undefined when it is none.
 *
 * @example
 * ```ts
 * parseBytes("50MB"); // 52428800
 * ```
 */
export function parseBytes(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$/i.exec(text);
  if (!match || (match[3] && /^ib$/i.test(match[3]) && !match[2])) return undefined;
  const power = match[2] === "" ? 0 : "kmgt".indexOf(match[2].toLowerCase()) + 1;
  return Math.round(Number(match[1]) * 1024 ** power);
}
