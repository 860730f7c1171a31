/**
 * The version pi-session reports: the same as package.json's, and `(source)` in place of a
 * commit when the TypeScript files run directly (the executable gets the commit from
 * scripts/compile.ts; tests/e2e/cli-matrix.test.ts checks that one).
 */
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { COMMIT, VERSION, VERSION_LINE } from "../../src/version.ts";

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));

describe("version", () => {
  it("VERSION equals the version in package.json", () => {
    assert.equal(VERSION, packageJson.version);
  });

  it("VERSION_LINE names the program, the version and (source) when run from source", () => {
    assert.equal(COMMIT, "source");
    assert.equal(VERSION_LINE, `pi-session ${packageJson.version} (source)`);
  });
});
