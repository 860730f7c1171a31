import assert from "node:assert/strict";
import { test } from "node:test";
import { PackedPaths } from "../../../src/core/intern/packed-paths.ts";

test("PackedPaths gives back every slice of the paths it packed, odd characters and empty paths too", () => {
  const paths = ["/a/1.jsonl", "", "/b/with\nnewline.jsonl", "/c/é 😀.jsonl", "/d/4.jsonl"];
  const packed = new PackedPaths(paths);
  assert.equal(packed.length, 5);
  for (let from = 0; from <= 6; from++) {
    for (let to = from; to <= 7; to++) assert.deepEqual(packed.slice(from, to), paths.slice(from, to), `${from}..${to}`);
  }
  assert.deepEqual(packed.slice(2), paths.slice(2));
});

test("PackedPaths of no path is empty", () => {
  const packed = new PackedPaths([]);
  assert.equal(packed.length, 0);
  assert.deepEqual(packed.slice(0, 10), []);
});

test("PackedPaths holds paths of Latin-1 characters a byte a character, and gives them back", () => {
  const paths = ["/home/dev/p1/2026-01-01T00-00-00-000Z_a.jsonl", "/home/dév/ÿ\u0080\u009f.jsonl", "x".repeat(20_000)];
  const packed = new PackedPaths(paths);
  const chars = paths.reduce((sum, path) => sum + path.length, 0);
  assert.equal(packed.weight, chars + 3 * 4);
  assert.deepEqual(packed.slice(0), paths);
});

test("PackedPaths keeps paths with wider characters (and lone surrogates) as they were", () => {
  const paths = ["/a/\ud800.jsonl", "/b/😀.jsonl", "/c/plain.jsonl"];
  assert.deepEqual(new PackedPaths(paths).slice(0), paths);
});
