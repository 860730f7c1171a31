/**
 * The blocking stats a full check goes through (src/catalog/stat-now.ts): many names of one
 * folder at once where the file system has it (`statNowEach`), else one by one; null where
 * nothing is there or a stat throws, as for one name.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statEachOrNull, statInOrNull } from "../../src/catalog/stat-now.ts";
import type { FileStat, FileSystem } from "../../src/io/file-system.ts";
import { bunFileSystem, nodeFileSystem } from "../../src/io/mod.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";

const onBun = (globalThis as { Bun?: unknown }).Bun !== undefined;

test("statEachOrNull() gives each name's stat in order, null for what is not there or throws, and none without blocking stats", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-stat-each-"));
  try {
    writeFileSync(join(dir, "a.jsonl"), "12345");
    writeFileSync(join(dir, "b.jsonl"), "1");
    const stem = `${dir}/`;
    const names = ["b.jsonl", "gone.jsonl", "a.jsonl", "y".repeat(5000)];
    const one = (name: string) => {
      try {
        return nodeFileSystem.statNow!(stem + name);
      } catch {
        return null;
      }
    };
    const expected = names.map(one);
    assert.deepEqual(expected.map((stat) => stat?.size ?? null), [1, null, 5, null]);
    for (const fs of onBun ? [nodeFileSystem, bunFileSystem] : [nodeFileSystem]) {
      assert.deepEqual(statEachOrNull(fs)!(stem, names), expected);
      // Through `statNowEach` where the file system has it, else one name at a time.
      const each: string[][] = [];
      const spied: FileSystem = fs.statNowEach ? { ...fs, statNowEach: (s, n) => (each.push([...n]), fs.statNowEach!(s, n)) } : fs;
      assert.deepEqual(statEachOrNull(spied)!(stem, ["a.jsonl"]), [one("a.jsonl")]);
      assert.deepEqual(each, fs.statNowEach ? [["a.jsonl"]] : []);
    }
    // Without `statNowIn` beside it, a `statNowEach` is not trusted (a wrapper that changed `stat`).
    const stale = (): FileStat => ({ size: -1, mtimeMs: 0, isFile: true, isDirectory: false, mode: 0 });
    const wrapped: FileSystem = { ...nodeFileSystem, statNowIn: undefined, statNowEach: (_, n) => n.map(stale) };
    assert.deepEqual(statEachOrNull(wrapped)!(stem, ["a.jsonl"]), [one("a.jsonl")]);
    assert.equal(statInOrNull(new MemoryFileSystem()) === undefined, statEachOrNull(new MemoryFileSystem()) === undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
