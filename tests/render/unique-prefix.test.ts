/**
 * Tests for unique id prefixes: the lengths `tree` prints with give the prefixes of
 * `uniquePrefixes`.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { commonPrefix, prefixLengthsAt, uniquePrefixes, uniquePrefixLengths } from "../../src/render/unique-prefix.ts";

test("uniquePrefixLengths() gives the lengths of uniquePrefixes()'s prefixes, short, long and alike", () => {
  // Ids sharing long prefixes, ids shorter than the minimum, one id the prefix of another, non-ASCII.
  const ids = ["abcdef12x", "abcdef12y", "abcdef1", "99", "a", "ab", "abcdef12xyz", "zz", "é1", "abcdefgh0000", "abcdefgh0001"];
  let seed = 7;
  for (let i = 0; i < 300; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    ids.push(seed.toString(16).padStart(8, "0").slice(0, 3 + (seed % 7)) + (i % 3 === 0 ? "ab" : ""));
  }
  const unique = [...new Set(ids)];
  for (const min of [1, 4, 8]) {
    const map = uniquePrefixes(unique, min);
    const lengths = uniquePrefixLengths([...unique], min);
    assert.equal(lengths.size, map.size);
    for (const id of unique) assert.equal(id.slice(0, lengths.get(id)), map.get(id), `${id} (min ${min})`);
  }
  assert.deepEqual(uniquePrefixLengths(["only"]), new Map([["only", 4]]));
});

test("commonPrefix() counts the UTF-16 code units two ids share", () => {
  assert.equal(commonPrefix("01a232a0-4dc7-7700", "01a232a0-4dc6-7700"), 12);
  assert.equal(commonPrefix("abc", "abcdef"), 3);
  assert.equal(commonPrefix("", "abc"), 0);
  // Two astral characters sharing their high surrogate: one unit in common, as the ids sort.
  assert.equal(commonPrefix("😀x", "😁x"), 1);
});

test("prefixLengthsAt() gives each place the length of its id's uniquePrefixes() prefix, repeats and order as given", () => {
  const ids = ["abcdef12x", "abcdef12y", "abcdef1", "99", "a", "ab", "abcdef12xyz", "zz", "é1", "abcdefgh0000", "abcdefgh0001", "\u{1F600}x", "\uE000y", "99", "abcdef12x"];
  let seed = 11;
  for (let i = 0; i < 300; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    ids.push(`01a2368d-${(seed % 4096).toString(16).padStart(3, "0")}`);
  }
  const expected = uniquePrefixes(ids);
  const lengths = prefixLengthsAt(ids);
  assert.equal(lengths.length, ids.length);
  ids.forEach((id, i) => assert.equal(id.slice(0, lengths[i]), expected.get(id), `${id} at ${i}`));
  assert.deepEqual(prefixLengthsAt(["abcdef12y", "99", "abcdef12x", "99"], 4), [9, 2, 9, 2]);
  assert.deepEqual(prefixLengthsAt([]), []);
});
