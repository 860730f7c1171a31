/**
 * Small formatting shared by the pages: dates in UTC, dollars, token counts, short ids.
 * @module
 */

/** `2026-03-02 09:00` (UTC) for an ISO time; "" when there is none. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString().slice(0, 16).replace("T", " ");
}

/** `$1.23`, `$0.0042`. */
export function dollars(n: number): string {
  return n >= 1 || n === 0 ? `$${n.toFixed(2)}` : `$${n.toPrecision(2)}`;
}

/** `12,345`. */
export function count(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** The last two parts of a folder, for narrow screens. */
export function shortCwd(cwd: string): string {
  const parts = cwd.split(/[/\\]/).filter(Boolean);
  return parts.length <= 2 ? cwd : `…/${parts.slice(-2).join("/")}`;
}
