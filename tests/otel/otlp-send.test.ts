/**
 * The gzip of a request: blocking (as on Bun) or on the thread pool (as on Node and Deno), the
 * same bytes once unzipped, and a gzip member of its own (a receiver reads it as any other).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { gzip } from "../../src/otel/otlp-send.ts";

test("gzip() gives a gzip stream of the body, blocking or not", async () => {
  const body = new Uint8Array(300_000);
  for (let i = 0; i < body.length; i++) body[i] = (i * 7919) % 251;
  for (const sync of [true, false]) {
    const zipped = await gzip(body, sync);
    assert.deepEqual([zipped[0], zipped[1]], [0x1f, 0x8b], `sync ${sync}: gzip magic`);
    assert.ok(zipped.length < body.length, `sync ${sync}: compressed`);
    assert.deepEqual(new Uint8Array(gunzipSync(zipped)), body, `sync ${sync}: round trip`);
  }
});

test("gzip() of an empty body is a gzip stream of nothing", async () => {
  for (const sync of [true, false]) assert.equal(gunzipSync(await gzip(new Uint8Array(0), sync)).length, 0);
});
