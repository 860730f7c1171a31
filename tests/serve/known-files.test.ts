/**
 * What the session watcher knows of every file, packed folder by folder (known-files.ts): the
 * same answers as a map of every path, before and after packing, with files coming and going.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type KnownFile, KnownFiles } from "../../src/serve/live/known-files.ts";

/** `known` and a plain map given the same changes answer alike. */
function same(known: KnownFiles, expected: Map<string, KnownFile>, paths: readonly string[]): void {
  for (const path of paths) assert.deepEqual(known.get(path), expected.get(path), path);
  assert.equal(known.size, expected.size);
}

describe("KnownFiles", () => {
  it("answers as a map of every path, before and after packing, as files come and go", () => {
    const known = new KnownFiles();
    const expected = new Map<string, KnownFile>();
    // Names in other orders by code unit than by locale, a name that is a prefix of another,
    // a name with a character beyond Latin-1, and two folders, one inside the other.
    const paths = [
      "/s/--p--/2026-03-02T09-00-00-000Z_a.jsonl",
      "/s/--p--/2026-03-02T09-00-00-000Z_a.jsonl.jsonl",
      "/s/--p--/B.jsonl",
      "/s/--p--/b.jsonl",
      "/s/--p--/é→.jsonl",
      "/s/--p--/sub/b.jsonl",
      "/s/--q--/notes.jsonl",
      "/s/--q--/x.jsonl",
    ];
    const set = (path: string, file: KnownFile) => {
      known.set(path, file);
      expected.set(path, { ...file });
    };
    const remove = (path: string) => {
      known.delete(path);
      expected.delete(path);
    };
    paths.forEach((path, i) => set(path, i % 3 === 0 ? { size: i, mtimeMs: i * 10, seen: 1, id: `id-${i}` } : { size: i, mtimeMs: i * 10, seen: 1 }));
    same(known, expected, [...paths, "/s/--p--/c.jsonl", "/s/--r--/a.jsonl"]);
    known.pack();
    same(known, expected, [...paths, "/s/--p--/c.jsonl", "/s/--p--/2026-03-02T09-00-00-000Z_", "/s/--p--/"]);
    // Changed in place, the id dropped; one gone; one new; a gone one back.
    set(paths[0], { size: 100, mtimeMs: 1000, seen: 2 });
    remove(paths[2]);
    set("/s/--p--/c.jsonl", { size: 7, mtimeMs: 70, seen: 2, id: "c" });
    remove(paths[6]);
    set(paths[6], { size: 66, mtimeMs: 660, seen: 2 });
    same(known, expected, [...paths, "/s/--p--/c.jsonl"]);
    known.pack();
    same(known, expected, [...paths, "/s/--p--/c.jsonl"]);
    // A folder emptied goes.
    remove(paths[6]);
    remove(paths[7]);
    known.pack();
    same(known, expected, paths);
  });

  it("marks files seen by a scan, and gives the paths of those it did not see", () => {
    const known = new KnownFiles();
    for (const path of ["/s/--p--/a.jsonl", "/s/--p--/b.jsonl", "/s/--q--/c.jsonl"]) known.set(path, { size: 1, mtimeMs: 1, seen: 0 });
    known.pack();
    known.set("/s/--q--/d.jsonl", { size: 1, mtimeMs: 1, seen: 0 });
    known.see("/s/--p--/a.jsonl", 1);
    known.see("/s/--q--/d.jsonl", 1);
    known.see("/s/--q--/nothing.jsonl", 1);
    assert.deepEqual(known.unseen(1).sort(), ["/s/--p--/b.jsonl", "/s/--q--/c.jsonl"]);
    assert.equal(known.get("/s/--p--/a.jsonl")?.seen, 1);
    assert.equal(known.get("/s/--q--/nothing.jsonl"), undefined);
  });
});
