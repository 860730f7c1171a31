/**
 * Terminal cell widths: our fast path for common text against string-width itself (the oracle
 * it short-cuts), and truncation to a width with `…`.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import stringWidth from "string-width";
import { knowWidths, measuredWidths, pad, textWidth, truncate } from "../../src/render/text-width.ts";

function* codePoints(from: number, to: number): Generator<string> {
  for (let code = from; code <= to; code++) if (code < 0xd800 || code > 0xdfff) yield String.fromCodePoint(code);
}

test("every character up to U+3000, and a sample above, is as wide as string-width says", () => {
  for (const char of codePoints(0, 0x3000)) assert.equal(textWidth(char), stringWidth(char), `U+${char.codePointAt(0)!.toString(16)}`);
  for (const char of ["😀", "👍🏽", "🇯🇵", "한", "ｱ", "\u{1f468}\u200d\u{1f469}\u200d\u{1f467}"]) assert.equal(textWidth(char), stringWidth(char), char);
});

test("mixed texts are as wide as string-width says", () => {
  const texts = ["", "plain ascii", "naïve café — “quoted” © ®", "├─ fork │ └─ • …", "soft\u00adhyphen", "e\u0301 combining", "日本語 text", "emoji 😀 in text", "ÀÉÎÕÜ ßðþ ɐɑɒ ʰʱ"];
  for (const text of texts) assert.equal(textWidth(text), stringWidth(text), JSON.stringify(text));
});

test("texts mixing plain, wide and combined characters at random are as wide as string-width says", () => {
  const pieces = ["a", " ", "é", "e\u0301", "日", "語", "カ", "한", "😀", "🚀", "👍🏽", "🇯🇵", "1\ufe0f\u20e3", "\u{1f468}\u200d\u{1f469}", "©", "\u00ad", "…", "\u200b", "ｱ", "\t", "\u0600", "ᄀ\u1161"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let n = 0; n < 3000; n++) {
    let text = "";
    for (let k = Math.floor(next() * 12); k > 0; k--) text += pieces[Math.floor(next() * pieces.length)];
    assert.equal(textWidth(text), stringWidth(text), JSON.stringify(text));
  }
});

test("truncate cuts to the width with an ellipsis, counting wide characters as two cells", () => {
  assert.equal(truncate("hello world", 8), "hello w…");
  assert.equal(truncate("hello", 5), "hello");
  assert.equal(truncate("hello", 0), "");
  assert.equal(truncate("日本語テキスト", 6), "日本…");
  assert.equal(truncate("naïve café au lait", 10), "naïve caf…");
  assert.equal(truncate("a😀b😀c", 4), "a😀…");
  for (const [text, width] of [["日本語テキスト", 6], ["naïve café au lait", 10], ["a😀b😀c", 4]] as const) {
    assert.ok(textWidth(truncate(text, width)) <= width);
  }
});

test("pad fills to the width in cells", () => {
  assert.equal(pad("日本", 6), "日本  ");
  assert.equal(pad("ab", 4, true), "  ab");
  // Fills of any length, a cell wider than the width left as it is.
  assert.equal(pad("ab", 300), "ab" + " ".repeat(298));
  assert.equal(pad("ab", 300, true), " ".repeat(298) + "ab");
  assert.equal(pad("abc", 2), "abc");
});

test("the widths measured first are given back as measured, and widths given as known are taken without measuring", () => {
  // Runs no other test measures: they are new to this process's widths.
  const a = "\u2603\ufe0f snowman \u{1f9ea}";
  textWidth(a);
  const measured = new Map(measuredWidths(Infinity));
  for (const [run, width] of measured) assert.equal(width, stringWidth(run), run);
  assert.ok([...measured.keys()].some((run) => run.includes("\u{1f9ea}")), "the run of the test tube was measured");
  assert.equal(measuredWidths(1).length, 1);
  // A width given as known is taken as string-width's (here a made-up one, to tell it apart).
  const run = "x\u{1f9fd}";
  knowWidths([[run, 7], ["bad", -1], ["also bad"], 3, [1, 2]]);
  assert.equal(textWidth(run), 7);
  assert.equal(new Map(measuredWidths(Infinity)).has("bad"), false);
  knowWidths("not a list");
});
