/**
 * src/mod.ts, the library's root, must offer everything core, session and io do: `export *`
 * silently drops a name that two of them export.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import * as library from "../src/mod.ts";
import * as core from "../src/core/mod.ts";
import * as session from "../src/session/mod.ts";
import * as io from "../src/io/mod.ts";

describe("src/mod.ts", () => {
  it("re-exports every export of core, session and io, each under its own name", () => {
    const parts: Record<string, Record<string, unknown>> = { core, session, io };
    const missing: string[] = [];
    let count = 0;
    for (const [part, exports] of Object.entries(parts)) {
      for (const [name, value] of Object.entries(exports)) {
        count++;
        if ((library as Record<string, unknown>)[name] !== value) missing.push(`${part}: ${name}`);
      }
    }
    assert.deepEqual(missing, []);
    assert.equal(Object.keys(library).length, count, "a name is exported by more than one part");
  });
});
