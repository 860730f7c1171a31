import assert from "node:assert/strict";
import { test } from "node:test";
import { oneByte } from "../../../src/core/intern/one-byte.ts";

test("oneByte() gives back the same characters, Latin-1, wide and lone surrogates alike", () => {
  for (const text of ["", "plain ascii", "--Users-sam-ünïcode-app--\n--home-dev-é--", "日本語 and ü", "😀 emoji", "\ud800 lone", "\u0000\u007f\u0080\u00ff", '"quoted" \\ \n\t']) {
    assert.equal(oneByte(text), text);
  }
});

test("oneByte() returns ASCII text and text with characters past U+00FF as they are, with no copy made", () => {
  // The engine keeps both as they are best kept already: ASCII a byte a character, wide text two.
  let copies = 0;
  const parse = JSON.parse;
  JSON.parse = (text: string) => (copies++, parse(text));
  try {
    oneByte("plain ascii");
    oneByte("日本語 and ü");
    assert.equal(copies, 0);
    oneByte("ünïcode");
    assert.equal(copies, 1);
  } finally {
    JSON.parse = parse;
  }
});
