import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { argumentsKey, cutText, decodeCursor, encodeCursor, fitItem, jsonLength, pageOf } from "../../src/mcp/page.ts";
import { checkParams } from "../../src/mcp/params.ts";

describe("pages under a character budget", () => {
  it("a cursor names its tool, arguments and offset; another tool's, other arguments' or garbage is refused", () => {
    const key = argumentsKey({ session: "abc", cursor: "x", maxChars: 5000 }, ["cursor", "maxChars"]);
    assert.equal(key, argumentsKey({ maxChars: 2000, session: "abc" }, ["cursor", "maxChars"]));
    assert.notEqual(key, argumentsKey({ session: "abd" }, ["cursor", "maxChars"]));
    const cursor = encodeCursor("read_session", key, 1234);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(decodeCursor("read_session", key, cursor), 1234);
    assert.throws(() => decodeCursor("get_context", key, cursor), /is not a cursor of get_context/);
    assert.throws(() => decodeCursor("read_session", "00000000", cursor), /belongs to a read_session call with other arguments/);
    assert.throws(() => decodeCursor("read_session", key, "%%%"), /is not a cursor of read_session/);
    assert.throws(() => decodeCursor("read_session", key, encodeCursor("read_session", key, -1)), /not a cursor/);
  });

  it("pageOf() takes the items that fit, and says where the next page starts", () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ i, text: "x".repeat(90) }));
    const one = jsonLength(items[0]) + 1;
    const page = pageOf(items, 0, 2 + 3 * one, "hint");
    assert.deepEqual(page.items.map((x) => x.i), [0, 1, 2]);
    assert.equal(page.next, 3);
    const last = pageOf(items, 9, 10_000, "hint");
    assert.deepEqual([last.items.length, last.next], [1, null]);
    assert.equal(pageOf(items, 0, 10_000, "hint", 4).next, 4);
  });

  it("pageOf() cuts a single item too long for a page, and counts the cut texts", () => {
    const page = pageOf([{ text: "y".repeat(50_000) }, { text: "z".repeat(900) }], 0, 1000, "ask for less");
    assert.equal(page.items.length, 1);
    assert.ok(jsonLength(page.items) <= 1000);
    assert.match(page.items[0].text, /…\[cut: \d+ more chars; ask for less\]$/);
    assert.deepEqual([page.cut, page.next], [1, 1]);
    // The next page starts with the long second item, cut in turn.
    const next = pageOf([{ text: "y".repeat(50_000) }, { text: "z".repeat(900) }], 1, 500, "ask for less");
    assert.deepEqual([next.items.length, next.cut, next.next], [1, 1, null]);
  });

  it("pageOf() prepares only the items it looks at", () => {
    const seen: number[] = [];
    pageOf([1, 2, 3, 4, 5].map((n) => ({ n, pad: "p".repeat(100) })), 1, 250, "h", Infinity, (item) => {
      seen.push(item.n);
      return { value: item, cut: 0, redacted: 0 };
    });
    assert.deepEqual(seen, [2, 3, 4]);
  });

  it("fitItem() and cutText() keep within the budget, mark included", () => {
    assert.equal(cutText("short", 10, "h"), "short");
    const cut = cutText("a".repeat(500), 100, "h");
    assert.equal(cut.length, 100);
    assert.match(cut, /^a+…\[cut: 4\d\d more chars; h\]$/);
    const fitted = fitItem({ a: "b".repeat(5000), c: ["d".repeat(5000)], n: 1 }, 2000, "h");
    assert.ok(jsonLength(fitted.value) <= 2000);
    assert.equal(fitted.cut, 2);
  });
});

describe("checkParams()", () => {
  const schema = {
    type: "object",
    properties: { q: { type: "string", minLength: 1 }, n: { type: "integer", minimum: 1 }, r: { type: "array", items: { type: "string", enum: ["a", "b"] } } },
    required: ["q"],
    additionalProperties: false,
  };
  it("accepts what fits and names the first problem otherwise", () => {
    assert.equal(checkParams({ q: "x", n: 2, r: ["a"] }, schema), undefined);
    assert.equal(checkParams(undefined, { type: "object", properties: {} }), undefined);
    assert.equal(checkParams({}, schema), 'missing required parameter "q"');
    assert.equal(checkParams({ q: " " }, schema), "q must not be empty");
    assert.equal(checkParams({ q: "x", n: 1.5 }, schema), "n must be a whole number, not number");
    assert.equal(checkParams({ q: "x", n: 0 }, schema), "n must be at least 1, not 0");
    assert.equal(checkParams({ q: "x", r: ["c"] }, schema), 'r[0] must be one of a, b, not "c"');
    assert.equal(checkParams({ q: "x", z: 1 }, schema), 'unknown parameter "z" (known: q, n, r)');
    assert.equal(checkParams([1], schema), "arguments must be an object, not array");
  });
});
