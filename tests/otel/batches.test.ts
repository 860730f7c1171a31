/** Batcher: requests bounded in spans and bytes, each knowing how many spans of which session it holds. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Batcher } from "../../src/otel/batches.ts";
import type { SpanRecord } from "../../src/otel/session-spans.ts";

const span = (id: number, size = 10): SpanRecord => ({ traceId: "t", spanId: String(id), name: "x".repeat(size), kind: 0, startMs: 0, endMs: 0, attributes: {} });
/** An "encoding" as long as the names together. */
const encode = (spans: readonly SpanRecord[]) => new Uint8Array(spans.reduce((n, s) => n + s.name.length, 0));

test("Batcher cuts at maxSpans and keeps per-session counts across batches", () => {
  const batcher = new Batcher(encode, { maxSpans: 3 });
  const ready = batcher.add("a", [span(1), span(2)]);
  assert.equal(ready.length, 0);
  const full = batcher.add("b", [span(3), span(4), span(5), span(6), span(7)]);
  assert.deepEqual(full.map((b) => [b.spanCount, [...b.sessions]]), [[3, [["a", 2], ["b", 1]]], [3, [["b", 3]]]]);
  assert.deepEqual(batcher.flush().map((b) => [b.spanCount, [...b.sessions]]), [[1, [["b", 1]]]]);
  assert.deepEqual(batcher.flush(), []);
});

test("Batcher halves a batch whose encoding is over maxBytes; a lone oversized span still goes", () => {
  const batcher = new Batcher(encode, { maxSpans: 100, maxBytes: 25 });
  batcher.add("a", [span(1), span(2), span(3), span(4, 40)]);
  const batches = batcher.flush();
  assert.deepEqual(batches.map((b) => b.spanCount), [2, 1, 1]);
  assert.ok(batches.slice(0, 2).every((b) => b.body.length <= 25));
  assert.equal(batches[2].body.length, 40);
});
