/**
 * `prettyJson()`: the same text as `JSON.stringify(present(value), null, 2)`, masked or not.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { prettyJson } from "../../src/serve/api/pretty-json.ts";
import { SECRET } from "../export/_fixture.ts";

const VALUES: unknown[] = [
  { schemaVersion: 1, leafId: null, filter: "default", rows: [{ id: "a", text: `key ${SECRET}`, depth: 0 }, { id: "b", nested: { list: [1, [2, {}], []], empty: {} } }] },
  { path: "/s/a.jsonl", entries: [], nextAfter: null, skipped: undefined },
  [{ id: "x", apiKey: "sk-plain-looking-value" }, "text", 3, null, [], {}],
  [],
  {},
  { unicode: "é → 😀 \u2028", quote: '"\\', deep: { a: { b: { c: [{ d: SECRET }] } } } },
  "a string",
  42,
  null,
];

test("prettyJson() writes what JSON.stringify(present(value), null, 2) writes, with and without masking", () => {
  for (const value of VALUES) {
    assert.equal(prettyJson(value, (v) => v), JSON.stringify(value, null, 2));
    assert.equal(prettyJson(value, (v) => new Redactor().value(v)), JSON.stringify(new Redactor().value(value), null, 2));
  }
});
