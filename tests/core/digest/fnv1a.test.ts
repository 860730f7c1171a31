import { test } from "node:test";
import assert from "node:assert/strict";
import { fnv1a, fnv1aCodes } from "../../../src/core/digest/fnv1a.ts";

test("fnv1a() gives the published FNV-1a 32-bit values of ASCII texts", () => {
  assert.equal(fnv1a(""), 0x811c9dc5);
  assert.equal(fnv1a("a"), 0xe40c292c);
  assert.equal(fnv1a("foobar"), 0xbf9cf968);
});

test("fnv1aCodes() of a text's code units, anywhere in an array, equals fnv1a() of the text", () => {
  for (const text of ["", "a", "foobar", "naïve 日本語 🚀", "\ud800 lone"]) {
    const chars = new Uint16Array(text.length + 4);
    for (let i = 0; i < text.length; i++) chars[i + 2] = text.charCodeAt(i);
    assert.equal(fnv1aCodes(chars, 2, 2 + text.length), fnv1a(text), text);
  }
});
