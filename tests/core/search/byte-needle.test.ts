/**
 * The byte needle finds, without decoding, every place the case-insensitive piece pattern
 * finds in the decoded text (and no place where the bytes do not spell the piece).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileNeedle, findNeedle } from "../../../src/core/search/byte-needle.ts";
import { escapeRegExp } from "../../../src/core/search/query.ts";

const encoder = new TextEncoder();

/** Byte offsets of every regex match (the oracle), and of every needle match. */
function both(piece: string, text: string): [number[], number[]] {
  const bytes = encoder.encode(text);
  const re = new RegExp(escapeRegExp(piece), "giu");
  const expected: number[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    expected.push(encoder.encode(text.slice(0, m.index)).length);
    re.lastIndex = m.index + (text.codePointAt(m.index)! > 0xffff ? 2 : 1);
  }
  const needle = compileNeedle(piece);
  const found: number[] = [];
  for (let at = findNeedle(needle, bytes, 0); at >= 0; at = findNeedle(needle, bytes, at + 1)) found.push(at);
  return [expected, found];
}

test("findNeedle() finds ASCII pieces case-insensitively, and the Kelvin and long-s spellings", () => {
  assert.deepEqual(both("Parser", "the PARSER and parser_x parsers"), [[4, 15, 24], [4, 15, 24]]);
  assert.deepEqual(both("ks", "\u212a\u017f KS ks"), [[0, 6, 9], [0, 6, 9]]);
  assert.deepEqual(both("日本", "x日本語 日本"), [[1, 11], [1, 11]]);
  assert.deepEqual(both("naïve", "NAÏVE naïve"), [[0, 7], [0, 7]]);
  assert.deepEqual(both('a\\"b', 'x a\\"B y'), [[2], [2]]);
  // Anchored past a character of several spellings (k: "k", "K" or the 3-byte Kelvin sign).
  assert.deepEqual(both("flaky", "a FLA\u212aY, flaky and ſlaky Flaky"), [[2, 11, 28], [2, 11, 28]]);
});

test("findNeedle() agrees with the iu regex on random texts", () => {
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const alphabet = ["a", "A", "k", "K", "\u212a", "s", "ſ", "S", "é", "É", "σ", "ς", "Σ", "日", "🚀", "-", '"', "\\", "z", " "];
  const pick = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
  for (let i = 0; i < 3000; i++) {
    const piece = pick(1 + Math.floor(next() * 3)).replace(/ /g, "");
    if (!piece) continue;
    const [expected, found] = both(piece, pick(40));
    assert.deepEqual(found, expected, JSON.stringify(piece));
  }
});
