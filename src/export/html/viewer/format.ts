/**
 * Numbers, money and dates as the viewer shows them. Dates are UTC, with the offset
 * written, so an export reads the same wherever it is opened.
 * @module
 */

/** `1,234,567`. */
export function groupDigits(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** `950`, `12.3k`, `4.5M`. */
export function compactNumber(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
}

/** `$0.0123` below a dollar, `$12.34` above. */
export function money(n: number): string {
  return `$${n.toFixed(n !== 0 && Math.abs(n) < 1 ? 4 : 2)}`;
}

/** `2025-06-01 10:00 UTC`, or the input when it is not a date. */
export function formatDate(value: unknown): string {
  const date = new Date(typeof value === "string" || typeof value === "number" ? value : NaN);
  if (Number.isNaN(date.getTime())) return typeof value === "string" ? value : "";
  return date.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** `10:00:05` (UTC) for an entry's header. */
export function formatClock(value: unknown): string {
  const date = new Date(typeof value === "string" || typeof value === "number" ? value : NaN);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(11, 19);
}
