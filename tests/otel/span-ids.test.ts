/**
 * Span and trace ids are fingerprints of session and entry ids that must never change between
 * versions: a receiver dedupes a re-export only when the ids are the ones sent before.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { entrySpanIdOf, rootSpanIdOf, traceIdOf } from "../../src/otel/span-ids.ts";

test("traceIdOf(), rootSpanIdOf() and entrySpanIdOf() give the ids earlier versions sent, for ASCII and other ids", () => {
  const session = "0197a3f2-1c2d-7e00-8000-000000000001";
  assert.equal(traceIdOf(session), "6637dd2f4f5abe9c2c477f4291e4d1d0");
  assert.equal(rootSpanIdOf(session), "acb7154dc46579bb");
  assert.equal(entrySpanIdOf(session, "a1b2c3d4"), "6deae857f36c58bc");
  assert.equal(entrySpanIdOf(session, "a1b2c3d4", "tool"), "adb0a78e4bfd4892");
  assert.equal(traceIdOf("séance-☃"), "af902b1460da93e617f9bdc47c334885");
  assert.equal(rootSpanIdOf("séance-☃"), "095084fc30446669");
  assert.equal(entrySpanIdOf("séance-☃", "ä€😀"), "752066c958948fa1");
  // Back to the first session, whose start is fingerprinted anew.
  assert.equal(entrySpanIdOf(session, "a1b2c3d4", "tool"), "adb0a78e4bfd4892");
  assert.equal(entrySpanIdOf(session, "a1b2c3d4"), "6deae857f36c58bc");
  // Longer than the reused buffer at first.
  assert.equal(entrySpanIdOf("x".repeat(400), "y".repeat(300), "tool"), "8104c81a2a48cca6");
  assert.equal(traceIdOf("x".repeat(400)), "96706636d107ec5bdf34b3299d760688");
});
