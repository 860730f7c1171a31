/**
 * Chunks and requests: a session's spans encoded in chunks bounded in spans and bytes, requests
 * made of whole chunks, each knowing how many spans of which session it holds, and joined
 * requests that decode to all their spans.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type Chunk, ChunkEncoder, encodeChunks, Packer } from "../../src/otel/batches.ts";
import { joinRequests, otlpEncoder } from "../../src/otel/otlp-encode.ts";
import type { SpanRecord } from "../../src/otel/session-spans.ts";
import { decodeRequest } from "./_receiver.ts";

const span = (id: number, size = 10): SpanRecord => ({ traceId: "t", spanId: String(id), name: "x".repeat(size), kind: 0, startMs: 0, endMs: 0, attributes: {} });
/** An "encoding" as long as the names together. */
const encode = (spans: readonly SpanRecord[]) => new Uint8Array(spans.reduce((n, s) => n + s.name.length, 0));
const chunk = (spans: number, bytes = spans): Chunk => ({ spans, body: new Uint8Array(bytes) });

test("encodeChunks() cuts a session's spans at maxSpans", () => {
  const chunks = encodeChunks(encode, [1, 2, 3, 4, 5, 6, 7].map((n) => span(n)), { maxSpans: 3 });
  assert.deepEqual(chunks.map((c) => c.spans), [3, 3, 1]);
  assert.deepEqual(encodeChunks(encode, []), []);
});

test("encodeChunks() halves a chunk whose encoding is over maxBytes; a lone oversized span still goes", () => {
  const chunks = encodeChunks(encode, [span(1), span(2), span(3), span(4, 40)], { maxSpans: 100, maxBytes: 25 });
  assert.deepEqual(chunks.map((c) => c.spans), [2, 1, 1]);
  assert.ok(chunks.slice(0, 2).every((c) => c.body.length <= 25));
  assert.equal(chunks[2].body.length, 40);
});

test("ChunkEncoder makes the chunks encodeChunks makes of all the spans, root first, holding at most a chunk's spans", () => {
  /** An "encoding" that spells the spans' ids, and counts how many spans it was given at once. */
  let most = 0;
  const spell = (spans: readonly SpanRecord[]) => {
    most = Math.max(most, spans.length);
    return new TextEncoder().encode(spans.map((s) => s.spanId).join(",") + ".".repeat(spans.reduce((n, s) => n + s.name.length, 0)));
  };
  const text = (chunks: Chunk[]) => chunks.map((c) => [c.spans, new TextDecoder().decode(c.body)]);
  for (const limits of [{ maxSpans: 1 }, { maxSpans: 2 }, { maxSpans: 3 }, { maxSpans: 5 }, { maxSpans: 4, maxBytes: 30 }]) {
    for (const count of [0, 1, 2, 3, 4, 5, 6, 7, 11, 12]) {
      for (const withRoot of [true, false]) {
        const spans = Array.from({ length: count }, (_, i) => span(i + 1, i % 4 === 3 ? 25 : 2));
        const root = withRoot ? span(0) : undefined;
        const chunker = new ChunkEncoder(spell, limits);
        most = 0;
        chunker.start(withRoot);
        for (const s of spans) chunker.add(s);
        chunker.end(root);
        const held = most;
        const expected = encodeChunks(spell, root ? [root, ...spans] : spans, limits);
        assert.deepEqual(text(chunker.chunks), text(expected), `${JSON.stringify(limits)}, ${count} spans, root ${withRoot}`);
        assert.equal(chunker.spans, count + (root ? 1 : 0));
        assert.ok(held <= limits.maxSpans, "never more than a chunk's spans at once");
      }
    }
  }
});

test("ChunkEncoder with onChunk hands out the same chunks as they fill when the root comes first, and holds them for a root that comes last", () => {
  const spell = (spans: readonly SpanRecord[]) => new TextEncoder().encode(spans.map((s) => s.spanId).join(","));
  const text = (chunks: Chunk[]) => chunks.map((c) => [c.spans, new TextDecoder().decode(c.body)]);
  const limits = { maxSpans: 3 };
  const spans = Array.from({ length: 8 }, (_, i) => span(i + 1));
  const root = span(0);
  const expected = text(encodeChunks(spell, [root, ...spans], limits));
  for (const early of [true, false]) {
    const out: Chunk[] = [];
    /** How many chunks were out before the last span was given. */
    let beforeEnd = 0;
    const chunker = new ChunkEncoder(spell, limits, (chunk) => out.push(chunk));
    chunker.start(true, early ? root : undefined);
    spans.forEach((s, i) => {
      chunker.add(s);
      if (i === spans.length - 2) beforeEnd = out.length;
    });
    chunker.end(root);
    assert.deepEqual(text(out), expected, `root ${early ? "first" : "last"}`);
    assert.deepEqual(chunker.chunks, []);
    assert.equal(chunker.spans, 9);
    assert.equal(beforeEnd, early ? 2 : 0, early ? "full chunks go as they fill" : "nothing goes before the root");
  }
});

test("Packer makes requests of whole chunks within maxSpans and keeps per-session counts", () => {
  const packer = new Packer({ maxSpans: 5 });
  assert.deepEqual(packer.add("a", [chunk(2)]), []);
  const full = packer.add("b", [chunk(3), chunk(3), chunk(1)]);
  assert.deepEqual(full.map((b) => [b.spanCount, b.bytes, b.parts.length, [...b.sessions]]), [[5, 5, 2, [["a", 2], ["b", 3]]]]);
  assert.deepEqual(packer.flush().map((b) => [b.spanCount, [...b.sessions]]), [[4, [["b", 4]]]]);
  assert.deepEqual(packer.flush(), []);
});

test("Packer starts a new request before maxBytes; a chunk over it goes alone", () => {
  const packer = new Packer({ maxSpans: 100, maxBytes: 10 });
  const ready = [...packer.add("a", [chunk(1, 6), chunk(1, 6), chunk(1, 30)]), ...packer.add("b", [chunk(1, 4)]), ...packer.flush()];
  assert.deepEqual(ready.map((b) => b.bytes), [6, 6, 30, 4]);
});

test("joinRequests(http/protobuf) joins into one buffer of its own, reused from request to request", () => {
  const join = joinRequests("http/protobuf");
  const bytes = (...values: number[]) => new Uint8Array(values);
  const first = join([bytes(1, 2), bytes(3)]);
  assert.deepEqual([...first], [1, 2, 3]);
  const second = join([bytes(4), bytes(5)]);
  assert.deepEqual([...second], [4, 5]);
  assert.equal(second.buffer, first.buffer, "no new buffer for a request no larger than one before");
  const alone = bytes(6);
  assert.equal(join([alone]), alone, "a single chunk is the request, not copied");
  assert.deepEqual([...join([bytes(7, 8, 9), bytes(10, 11)])], [7, 8, 9, 10, 11]);
});

const spanRecord = (traceId: string, spanId: string): SpanRecord => ({ traceId, spanId, name: `chat ${spanId}`, kind: 2, startMs: 1000, endMs: 2000, attributes: { "gen_ai.usage.input_tokens": 5 } });

for (const protocol of ["http/protobuf", "http/json"] as const) {
  test(`joinRequests(${protocol}) makes one request that decodes to the spans of all`, () => {
    const enc = otlpEncoder(protocol, { "service.name": "pi-session" });
    const a = enc([spanRecord("a".repeat(32), "1".repeat(16)), spanRecord("a".repeat(32), "2".repeat(16))]);
    const b = enc([spanRecord("b".repeat(32), "3".repeat(16))]);
    const contentType = protocol === "http/json" ? "application/json" : "application/x-protobuf";
    const spans = decodeRequest(joinRequests(protocol)([a, b]), contentType);
    assert.deepEqual(spans.map((s) => [s.traceId, s.spanId, s.name, s.attributes["gen_ai.usage.input_tokens"]]), [
      ["a".repeat(32), "1".repeat(16), "chat 1111111111111111", 5],
      ["a".repeat(32), "2".repeat(16), "chat 2222222222222222", 5],
      ["b".repeat(32), "3".repeat(16), "chat 3333333333333333", 5],
    ]);
    assert.deepEqual(spans.map((s) => s.resource), [0, 1, 2].map(() => ({ "service.name": "pi-session" })));
  });
}
