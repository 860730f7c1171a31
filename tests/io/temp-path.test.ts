/**
 * The temp file `writeAtomic` renames over its target must sit in the target's directory.
 * @module
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { siblingTempPath } from "../../src/io/_temp-path.ts";

describe("siblingTempPath()", () => {
  it("siblingTempPath() names a hidden temp file beside the target", () => {
    const cases: [string, RegExp, string][] = [
      ["/x/y/s.jsonl", /^\/x\/y\/\.s\.jsonl\.[0-9a-f]{12}\.tmp$/, "/x/y"],
      ["/s.jsonl", /^\/\.s\.jsonl\.[0-9a-f]{12}\.tmp$/, "/"],
      ["s.jsonl", /^\.s\.jsonl\.[0-9a-f]{12}\.tmp$/, "."],
      ["C:\\x\\s.jsonl", /^C:\\x\\\.s\.jsonl\.[0-9a-f]{12}\.tmp$/, "C:\\x"],
    ];
    for (const [path, temp, dir] of cases) {
      const result = siblingTempPath(path);
      assert.match(result.temp, temp);
      assert.equal(result.dir, dir);
    }
    assert.notEqual(siblingTempPath("/a").temp, siblingTempPath("/a").temp);
  });
});
