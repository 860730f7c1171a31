import assert from "node:assert/strict";
import { test } from "node:test";
import { residentBytes } from "../../src/io/collect-garbage.ts";

test("residentBytes() gives the process's resident memory, more than a megabyte on every runtime", () => {
  const bytes = residentBytes();
  assert.ok(Number.isSafeInteger(bytes), `not an integer: ${bytes}`);
  assert.ok(bytes > 1024 * 1024, `resident bytes ${bytes}`);
});
