/**
 * Relative ages as pi's session picker shows them: now, 5m, 3h, 2d, 1w, 4mo, 1y.
 * @module
 */

/**
 * @example
 * ```ts
 * relativeAge(new Date(0), new Date(3 * 3600_000)); // "3h"
 * ```
 */
export function relativeAge(then: Date, now: Date): string {
  const seconds = Math.max(0, (now.getTime() - then.getTime()) / 1000);
  if (!Number.isFinite(seconds)) return "?";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d`;
  if (days < 30) return `${Math.floor(days / 7)}w`;
  if (days < 365) return `${Math.floor(days / 30)}mo`;
  return `${Math.floor(days / 365)}y`;
}
