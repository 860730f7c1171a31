/**
 * Finds a literal piece of text in UTF-8 bytes without decoding them, case-insensitively as the
 * `iu` regex flags fold (so `k` also finds the Kelvin sign): each character becomes the byte
 * spellings it may take, and the rarest one with a fixed offset anchors the search.
 * @module
 */
import { escapeRegExp } from "./query.ts";

/** A compiled piece: per character, the UTF-8 spellings it matches. */
export interface ByteNeedle {
  units: Uint8Array[][];
  /** The unit searched for first, and how many bytes precede it in every match. */
  anchor: number;
  offset: number;
}

const encoder = new TextEncoder();
// Characters that simple case folding joins to a letter beyond its plain upper and lower case.
const EXTRA = "kK\u212a sS\u017f åÅ\u212b ωΩ\u2126 ßẞ µΜμ βϐ θϑϴ φϕ πϖ κϰ ρϱ εϵ σςΣ ιͅιΙ\u1fbe";
const FOLDS = EXTRA.split(" ");
// ASCII letters from most to least frequent in session text, to pick a rare anchor.
const COMMON = "etaoinsrhldcumfpgwybvkxjqz";
const JSON_SYNTAX = '"\\:,{}[]';

function spellings(c: string): string[] {
  const same = new RegExp(`^${escapeRegExp(c)}$`, "iu");
  const candidates = new Set([c, c.toLowerCase(), c.toUpperCase(), ...(FOLDS.find((f) => f.includes(c)) ?? "")]);
  return [...candidates].filter((x) => [...x].length === 1 && same.test(x));
}

/** Higher for characters expected to be rarer in raw session lines (and with fewer spellings). */
function rarity(c: string, alternatives: number): number {
  const at = COMMON.indexOf(c.toLowerCase());
  const base = at >= 0 ? at + 1 : JSON_SYNTAX.includes(c) ? 0.5 : /[0-9]/.test(c) ? 8 : c.charCodeAt(0) < 0x80 ? 12 : 40;
  return base / alternatives;
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
  const chars = [...piece];
  const units = chars.map((c) => spellings(c).map((s) => encoder.encode(s)));
  let anchor = 0;
  let offset = 0;
  let best = -1;
  let before = 0;
  for (let i = 0; i < units.length; i++) {
    const score = rarity(chars[i], units[i].length);
    if (score > best) [anchor, offset, best] = [i, before, score];
    const lengths = new Set(units[i].map((u) => u.length));
    if (lengths.size > 1) break; // later units have no fixed offset
    before += units[i][0].length;
  }
  return { units, anchor, offset };
}

function matchesAt(units: Uint8Array[][], b: Uint8Array, at: number, unit: number): boolean {
  if (unit === units.length) return true;
  for (const s of units[unit]) {
    if (at + s.length > b.length) continue;
    let k = 0;
    while (k < s.length && b[at + k] === s[k]) k++;
    if (k === s.length && matchesAt(units, b, at + s.length, unit + 1)) return true;
  }
  return false;
}

/** The first index at or after `from` where `needle` matches in `b`, or -1. */
export function findNeedle(needle: ByteNeedle, b: Uint8Array, from: number): number {
  let found = -1;
  for (const s of needle.units[needle.anchor]) {
    const last = s.length - 1;
    for (let i = b.indexOf(s[last], from + needle.offset + last); i >= 0; i = b.indexOf(s[last], i + 1)) {
      const start = i - last - needle.offset;
      if (found >= 0 && start >= found) break;
      if (start >= from && matchesAt(needle.units, b, start, 0)) {
        found = start;
        break;
      }
    }
  }
  return found;
}
