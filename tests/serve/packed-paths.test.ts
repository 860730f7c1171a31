import assert from "node:assert/strict";
import { test } from "node:test";
import { PackedPaths } from "../../src/serve/packed-paths.ts";

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
