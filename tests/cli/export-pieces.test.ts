/**
 * `pieces` (export-output.ts) joins an export's chunks into pieces of up to a megabyte in two
 * buffers taken in turn: the bytes are those of the chunks, whatever their mix of text
 * (multibyte too), small and large byte chunks, and no piece is made in a buffer the writer may
 * still hold (the one handed out last).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pieces } from "../../src/cli/export-output.ts";

const MB = 1024 * 1024;
const encoder = new TextEncoder();

async function* from<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

/** A mix of chunks: short and long text (ASCII, accents, emoji), small and large bytes. */
function mixedChunks(): (string | Uint8Array)[] {
  const chunks: (string | Uint8Array)[] = [];
  for (let k = 0; k < 400; k++) {
    chunks.push(`{"k":${k},"t":"${"é😀x".repeat((k * 37) % 3000)}"}\n`);
    if (k % 50 === 7) chunks.push(encoder.encode("b".repeat(MB + k)));
    if (k % 40 === 3) chunks.push("long ü ".repeat(60_000));
    if (k % 9 === 0) chunks.push(new Uint8Array(k * 100).fill(65));
    if (k % 60 === 11) chunks.push("");
  }
  return chunks;
}

describe("pieces()", () => {
  it("gives the bytes of the chunks, in order", async () => {
    const chunks = mixedChunks();
    const expected = Buffer.concat(chunks.map((c) => (typeof c === "string" ? encoder.encode(c) : c)));
    const out: Uint8Array[] = [];
    for await (const piece of pieces(from(chunks))) out.push(piece.slice());
    assert.ok(out.length > 10, `${out.length} pieces`);
    assert.ok(Buffer.concat(out).equals(expected));
  });

  it("makes its pieces in two buffers taken in turn, never in the one handed out last", async () => {
    const lines = Array.from({ length: 20_000 }, (_, k) => `line ${k} ${"x".repeat(k % 400)}\n`);
    const buffers = new Set<ArrayBufferLike>();
    let last: ArrayBufferLike | null = null;
    let count = 0;
    for await (const piece of pieces(from(lines))) {
      assert.notEqual(piece.buffer, last, `piece ${count} is made in the buffer of the piece before it`);
      last = piece.buffer;
      buffers.add(piece.buffer);
      count++;
    }
    assert.ok(count >= 4, `${count} pieces`);
    assert.equal(buffers.size, 2);
  });
});
