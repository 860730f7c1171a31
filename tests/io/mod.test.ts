/**
 * `detectFileSystem` picks the adapter of the runtime running the tests.
 * @module
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bunFileSystem, denoFileSystem, detectFileSystem, nodeFileSystem } from "../../src/io/mod.ts";

describe("detectFileSystem()", () => {
  it("detectFileSystem() picks the adapter for the current runtime", () => {
    const expected = "Bun" in globalThis ? bunFileSystem : "Deno" in globalThis ? denoFileSystem : nodeFileSystem;
    assert.equal(detectFileSystem(), expected);
  });
});
