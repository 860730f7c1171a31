/**
 * Character budgets for tool results: a page of a result's list that fits, a cursor to the
 * rest, and long strings cut with a mark that says how much was left out. Pure.
 * @module
 */
import { fnv1a } from "../core/digest/fnv1a.ts";

/** Where a page starts, opaque to clients: the tool, the call's arguments (a hash) and an offset into its list. */
interface Cursor {
  tool: string;
  args: string;
  offset: number;
}

/** A short hash (FNV-1a, 32 bits, hex) of the arguments that choose a list, so a cursor is not used with others. */
export function argumentsKey(args: Record<string, unknown>, ignore: readonly string[]): string {
  const kept = Object.keys(args).filter((key) => !ignore.includes(key) && args[key] !== undefined).sort();
  const text = JSON.stringify(kept.map((key) => [key, args[key]]));
  return fnv1a(text).toString(16).padStart(8, "0");
}

/** A cursor string a client got from `nextCursor`. */
export function encodeCursor(tool: string, args: string, offset: number): string {
  const json = JSON.stringify({ tool, args, offset } satisfies Cursor);
  return btoa(json).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The offset a cursor stands for; an Error (for a client's bad cursor) when it is not one of `tool`'s with these `args`. */
export function decodeCursor(tool: string, args: string, text: string): number {
  let value: Partial<Cursor> | undefined;
  try {
    value = JSON.parse(atob(text.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    value = undefined;
  }
  if (value?.tool !== tool || !Number.isInteger(value.offset) || value.offset! < 0) {
    throw new Error(`cursor "${text}" is not a cursor of ${tool}: pass the nextCursor of a previous ${tool} call with the same arguments`);
  }
  if (value.args !== args) throw new Error(`cursor "${text}" belongs to a ${tool} call with other arguments: pass the same arguments as the call that returned it`);
  return value.offset!;
}

/** The mark put in place of the end of a cut string. */
export function cutMark(left: number, hint: string): string {
  return `…[cut: ${left} more chars; ${hint}]`;
}

/** `text` at most `max` characters long (mark included), cut at the end with a mark. */
export function cutText(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - cutMark(text.length, hint).length);
  return text.slice(0, keep) + cutMark(text.length - keep, hint);
}

/** The length of `value` as compact JSON. */
export function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

/**
 * A copy of `value` with every string longer than `max` cut (see `cutText`); `count` says how
 * many were. Object keys are never cut.
 */
export function cutStrings(value: unknown, max: number, hint: string): { value: unknown; count: number } {
  let count = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (v.length <= max) return v;
      count++;
      return cutText(v, max, hint);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) out[key] = walk(item);
    return out;
  };
  return { value: walk(value), count };
}

/**
 * Shrinks `item` under `budget` characters of JSON by cutting its longest strings, shorter and
 * shorter; `cut` counts the strings cut (0 when it fit as it was).
 */
export function fitItem(item: unknown, budget: number, hint: string): { value: unknown; cut: number } {
  if (jsonLength(item) <= budget) return { value: item, cut: 0 };
  let max = Math.max(64, Math.floor(budget / 2));
  for (;;) {
    const { value, count } = cutStrings(item, max, hint);
    if (jsonLength(value) <= budget || max <= 64) return { value, cut: count };
    max = Math.max(64, Math.floor(max / 2));
  }
}

/** One page of a list. */
export interface Page<T> {
  items: T[];
  /** Index of the first item in the whole list. */
  offset: number;
  /** Where the next page starts; null when this page reaches the end. */
  next: number | null;
  /** Strings cut so that items fit (by `prepare`, or to fit a single item in the page). */
  cut: number;
  /** Secrets masked in the page's items (by `prepare`). */
  redacted: number;
}

/** What `prepare` makes of an item before it is measured: the item to show, texts cut, secrets masked. */
export interface Prepared<T> {
  value: T;
  cut: number;
  redacted: number;
}

/**
 * The items of `list` from `offset` on that fit in `budget` characters of JSON, at most `limit`
 * of them; at least one item, cut to fit when it alone is too long. Only the items looked at go
 * through `prepare` (a page of a 14 MB context costs a page, not the whole).
 */
export function pageOf<T>(
  list: readonly T[],
  offset: number,
  budget: number,
  hint: string,
  limit = Infinity,
  prepare: (item: T) => Prepared<T> = (value) => ({ value, cut: 0, redacted: 0 }),
): Page<T> {
  const items: T[] = [];
  let used = 2;
  let cut = 0;
  let redacted = 0;
  let i = offset;
  for (; i < list.length && items.length < limit; i++) {
    const prepared = prepare(list[i]);
    const size = jsonLength(prepared.value) + 1;
    if (used + size > budget) {
      if (items.length > 0) break;
      const fitted = fitItem(prepared.value, Math.max(0, budget - used - 1), hint);
      items.push(fitted.value as T);
      cut += fitted.cut + prepared.cut;
      redacted += prepared.redacted;
      used += jsonLength(fitted.value) + 1;
      continue;
    }
    items.push(prepared.value);
    cut += prepared.cut;
    redacted += prepared.redacted;
    used += size;
  }
  return { items, offset, next: i < list.length ? i : null, cut, redacted };
}
