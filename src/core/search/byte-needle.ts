/**
 * Finds a literal piece of text in UTF-8 bytes without decoding them, case-insensitively as the
 * `iu` regex flags fold (so `k` also finds the Kelvin sign): each character becomes the byte
 * spellings it may take, and the character whose bytes are expected to be rarest anchors the
 * search; the others are checked around each place the anchor is found.
 * @module
 */
import { escapeRegExp } from "./query.ts";

/** A compiled piece: per character, the UTF-8 spellings it matches. */
export interface ByteNeedle {
  units: Uint8Array[][];
  /** The unit searched for first. */
  anchor: number;
  /** The fewest and the most bytes the units before the anchor take. */
  minBefore: number;
  maxBefore: number;
}

const encoder = new TextEncoder();
// Characters that simple case folding joins to a letter beyond its plain upper and lower case.
const EXTRA = "kK\u212a sS\u017f åÅ\u212b ωΩ\u2126 ßẞ µΜμ βϐ θϑϴ φϕ πϖ κϰ ρϱ εϵ σςΣ ιͅιΙ\u1fbe";
const FOLDS = EXTRA.split(" ");
// Rough share, per mille, of each lower-case ASCII letter among the bytes of session lines.
const LETTERS: Record<string, number> = {
  e: 80, t: 60, a: 50, s: 48, o: 47, r: 46, i: 44, n: 44, c: 30, l: 25, d: 24, h: 20, m: 20,
  f: 16, p: 16, u: 15, y: 9, g: 8, w: 7, b: 7, k: 5, x: 5, v: 3, j: 1, q: 1, z: 0.5,
};
const JSON_SYNTAX = '"\\:,{}[]';
/** Each spelling of the anchor costs one more pass over the bytes: about this many candidates' worth. */
const PASS_COST = 2;

function spellings(c: string): string[] {
  const same = new RegExp(`^${escapeRegExp(c)}$`, "iu");
  const candidates = new Set([c, c.toLowerCase(), c.toUpperCase(), ...(FOLDS.find((f) => f.includes(c)) ?? "")]);
  return [...candidates].filter((x) => [...x].length === 1 && same.test(x));
}

/** The expected share (per mille) of `byte` among the bytes of session lines. */
function byteShare(byte: number): number {
  if (byte >= 0x80) return 1;
  const c = String.fromCharCode(byte);
  const lower = c.toLowerCase();
  if (LETTERS[lower] !== undefined) return c === lower ? LETTERS[lower] : LETTERS[lower] / 8;
  if (JSON_SYNTAX.includes(c)) return 30;
  return /[0-9]/.test(c) ? 10 : 5;
}

/** What anchoring on a unit is expected to cost: the candidates its spellings' last bytes give, and the passes. */
function anchorCost(unit: Uint8Array[]): number {
  return unit.reduce((sum, s) => sum + byteShare(s[s.length - 1]) + PASS_COST, 0);
}

/**
 * Compiles `piece` (a term's longest unbroken part, as JSON spells it).
 *
 * @example
 * ```ts
 * const needle = compileNeedle("Parser");
 * findNeedle(needle, new TextEncoder().encode('{"a":"the PARSER"}'), 0); // 10
 * ```
 */
export function compileNeedle(piece: string): ByteNeedle {
  const units = [...piece].map((c) => spellings(c).map((s) => encoder.encode(s)));
  const costs = units.map(anchorCost);
  const anchor = costs.indexOf(Math.min(...costs));
  let minBefore = 0;
  let maxBefore = 0;
  for (const unit of units.slice(0, anchor)) {
    minBefore += Math.min(...unit.map((s) => s.length));
    maxBefore += Math.max(...unit.map((s) => s.length));
  }
  return { units, anchor, minBefore, maxBefore };
}

function spelledAt(s: Uint8Array, b: Uint8Array, at: number): boolean {
  if (at < 0 || at + s.length > b.length) return false;
  for (let k = 0; k < s.length; k++) if (b[at + k] !== s[k]) return false;
  return true;
}

/** True when units `unit`… are spelled from `at` on. */
function matchesAfter(units: Uint8Array[][], b: Uint8Array, at: number, unit: number): boolean {
  if (unit === units.length) return true;
  for (const s of units[unit]) if (spelledAt(s, b, at) && matchesAfter(units, b, at + s.length, unit + 1)) return true;
  return false;
}

/**
 * Where units `0…unit` start when they are spelled just before `end`, not before `min`; or -1.
 * UTF-8 never spells one character as the tail of another, so at most one spelling fits.
 */
function startBefore(units: Uint8Array[][], b: Uint8Array, end: number, unit: number, min: number): number {
  if (unit < 0) return end >= min ? end : -1;
  for (const s of units[unit]) {
    if (spelledAt(s, b, end - s.length)) return startBefore(units, b, end - s.length, unit - 1, min);
  }
  return -1;
}

/** The first index at or after `from` where `needle` matches in `b`, or -1. */
export function findNeedle(needle: ByteNeedle, b: Uint8Array, from: number): number {
  const { units, anchor, minBefore, maxBefore } = needle;
  let found = -1;
  for (const s of units[anchor]) {
    const last = s.length - 1;
    const key = s[last];
    for (let i = b.indexOf(key, from + minBefore + last); i >= 0; i = b.indexOf(key, i + 1)) {
      const at = i - last;
      // Every later place of this spelling starts a match after the one found.
      if (found >= 0 && at - maxBefore >= found) break;
      if (!spelledAt(s, b, at) || !matchesAfter(units, b, i + 1, anchor + 1)) continue;
      const start = startBefore(units, b, at, anchor - 1, from);
      if (start >= 0 && (found < 0 || start < found)) found = start;
    }
  }
  return found;
}
