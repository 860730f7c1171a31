/**
 * The small JSON Schema checker the schema test relies on (tests/_json-schema.ts): each keyword
 * it claims to enforce rejects what it should, and a keyword it does not know is an error.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type Schema, validate } from "./_json-schema.ts";

const person: Schema = {
  $defs: { age: { type: "integer" } },
  type: "object",
  properties: { name: { type: "string" }, age: { $ref: "#/$defs/age" }, tags: { type: "array", items: { enum: ["a", "b"] } }, note: { type: ["string", "null"] } },
  required: ["name"],
  additionalProperties: false,
};

test("validate() accepts a conforming value", () => {
  assert.deepEqual(validate(person, { name: "x", age: 3, tags: ["a", "b"], note: null }), []);
});

test("validate() reports wrong types, missing and extra properties, bad enum items and $ref targets", () => {
  assert.deepEqual(validate(person, { age: 3.5, tags: ["c"], note: 1, extra: true }), [
    '$: missing required property "name"',
    "$.age: expected integer, got number",
    '$.tags[0]: "c" is not one of ["a","b"]',
    "$.note: expected string or null, got number",
    '$: unexpected property "extra"',
  ]);
  assert.deepEqual(validate(person, []), ["$: expected object, got array"]);
  assert.deepEqual(validate({ type: "number" }, NaN), ["$: expected number, got number"]);
  assert.deepEqual(validate({ $ref: "#/$defs/none" }, 1), ["$: cannot resolve $ref #/$defs/none"]);
});

test("validate() checks extra properties against an additionalProperties schema", () => {
  assert.deepEqual(validate({ type: "object", additionalProperties: { type: "integer" } }, { a: 1, b: "2" }), ["$.b: expected integer, got string"]);
});

test("validate() refuses a schema keyword it does not enforce", () => {
  assert.deepEqual(validate({ type: "string", minLength: 3 } as Schema, "ab"), ["$: the schema uses keywords this checker does not know: minLength"]);
});
