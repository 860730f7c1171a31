/**
 * `writeTempDirect` (the Bun adapter's way to write a big file past the page cache) writes the
 * same bytes as the data, whatever the chunks' sizes, where the direct part starts (aligned or
 * not), and whether the buffers it is given are aligned (direct writes) or not (refused, then
 * written through the cache), with small sizes so that every path is taken on a few kilobytes.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ALIGN, type AlignedBuffer, writeTempDirect } from "../../src/io/_direct-write.ts";
import { bunFileSystem } from "../../src/io/bun.ts";

let dir = "";
before(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-session-direct-write-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes that differ from offset to offset (a misplaced piece shows). */
function data(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 12)) & 0xff;
  return bytes;
}

async function* chunked(bytes: Uint8Array, sizes: number[]): AsyncIterable<Uint8Array> {
  // One reused buffer, as a producer that fills the same buffer again may do.
  const reused = new Uint8Array(Math.max(...sizes));
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = Math.min(sizes[k % sizes.length], bytes.length - at);
    reused.set(bytes.subarray(at, at + size));
    yield reused.subarray(0, size);
    at += size;
  }
}

/** Buffers a page past where a plain one starts: aligned where the runtime's large buffers are. */
const unaligned: AlignedBuffer = (size) => new Uint8Array(size + 1).subarray(1);
const plain: AlignedBuffer = (size) => new Uint8Array(size);
const none: AlignedBuffer = () => null;

describe("writeTempDirect()", () => {
  let n = 0;
  const cases: [string, number, number[], number][] = [
    ["smaller than where direct writes start", 3000, [1000], 8 * ALIGN],
    ["direct from an aligned offset, a tail", 40 * ALIGN + 123, [ALIGN], 8 * ALIGN],
    ["direct from an unaligned offset, odd chunks", 37 * ALIGN + 4001, [777, 5 * ALIGN + 3, 13], 8 * ALIGN + 100],
    ["a whole number of pieces", 48 * ALIGN, [16 * ALIGN], 8 * ALIGN],
    ["one chunk larger than several pieces", 50 * ALIGN + 1, [50 * ALIGN + 1], 1],
  ];
  for (const [what, size, sizes, from] of cases) {
    for (const [kind, aligned] of [["plain buffers", plain], ["unaligned buffers", unaligned], ["no buffers", none]] as const) {
      it(`writes the data as it is: ${what} (${kind})`, async () => {
        const bytes = data(size);
        const temp = join(dir, `t${n++}.tmp`);
        await writeTempDirect(temp, chunked(bytes, sizes), 0o600, aligned, { from, piece: 8 * ALIGN });
        assert.deepEqual(new Uint8Array(readFileSync(temp)), bytes);
      });
    }
  }

  it("fails on a temp file that exists, and passes on a producer's failure", async () => {
    const temp = join(dir, "exists.tmp");
    await writeTempDirect(temp, data(10), 0o600, plain);
    await assert.rejects(writeTempDirect(temp, data(10), 0o600, plain), { code: "EEXIST" });
    const failing = async function* () {
      yield data(100);
      throw new Error("producer broke");
    };
    await assert.rejects(writeTempDirect(join(dir, "broken.tmp"), failing(), 0o600, plain), (error: { error?: Error }) => error.error?.message === "producer broke");
  });
});

describe("bunFileSystem.writeAtomic()", () => {
  it("puts a file of many pieces in place, byte for byte", async () => {
    const path = join(dir, "big.bin");
    const bytes = data(9 * 1024 * 1024 + 4321);
    await bunFileSystem.writeAtomic(path, chunked(bytes, [1024 * 1024 + 17]));
    assert.deepEqual(new Uint8Array(readFileSync(path)), bytes);
    assert.ok(!existsSync(`${path}.tmp`));
  });
});
