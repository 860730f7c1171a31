/**
 * Path helpers of the core against `node:path`'s POSIX rules, as the oracle: normalizing and
 * resolving give what `path.posix` gives, for normal paths (kept as they are) and odd ones.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { posix } from "node:path";
import { normalizePath, resolvePath } from "../../../src/core/storage/paths.ts";

const PATHS = [
  "/", "/a", "/a/b", "/a/b/", "/a//b", "//a", "/a/./b", "/a/../b", "/../a", "/a/b/..", "/a/b/.", "/a/...", "/.a/b",
  "a", "a/b", "a/", "./a", "../a", "a/../..", ".", "..", "...", "a/..b", "a/b..", "a/.b/c", "/home/dev/with space/ünïcode",
  "/home/u/.pi/agent/sessions/--home-u--/2026-01-01T00-00-00-000Z_0199.jsonl",
];

test("normalizePath() is path.posix.normalize without a trailing separator", () => {
  for (const path of PATHS) {
    const expected = posix.normalize(path);
    assert.equal(normalizePath(path), expected.length > 1 && expected.endsWith("/") ? expected.slice(0, -1) : expected, path);
  }
});

test("resolvePath() is path.posix.resolve against a base", () => {
  for (const base of ["/", "/work/proj", "/work/proj/"]) {
    for (const path of PATHS) assert.equal(resolvePath(base, path), posix.resolve(base, path), `${base} + ${path}`);
  }
});
