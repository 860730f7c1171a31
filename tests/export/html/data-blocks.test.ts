/**
 * The HTML export's data blocks: every `<` escaped, long lines cut only between UTF-8
 * characters, and a returned block left intact while the next one is made (the export writes
 * one block while it makes the next).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DataBlocks } from "../../../src/export/html/data-blocks.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const OPEN = '<script type="application/x-ndjson" class="pi-session-data">';
const CLOSE = "</script>\n";

/** The data of each block, as text. */
function data(blocks: Uint8Array[]): string[] {
  return blocks.map((block) => {
    const text = decoder.decode(block);
    assert.ok(text.startsWith(OPEN) && text.endsWith(CLOSE), text);
    return text.slice(OPEN.length, -CLOSE.length);
  });
}

test("lines come out in blocks of the given size, `<` escaped, never cut inside a character", () => {
  const blocks = new DataBlocks(16);
  const out: Uint8Array[] = [];
  const lines = ['{"t":"<b>ünï</b>"}\n', '{"t":"日本語のテキスト"}\n', "x\n"];
  for (const line of lines) for (const block of blocks.add(encoder.encode(line))) out.push(block.slice());
  out.push(blocks.finish().slice());
  const texts = data(out);
  assert.equal(texts.join(""), lines.join("").replaceAll("<", "\\u003c"));
  for (const text of texts) assert.ok(encoder.encode(text).length <= 16, text);
  assert.ok(!texts.join("").includes("\uFFFD"), "no character was cut");
});

test("the last block returned stays intact while the next ones are made", () => {
  const blocks = new DataBlocks(8);
  let held: { block: Uint8Array; text: string } | undefined;
  const seen: string[] = [];
  const receive = (block: Uint8Array) => {
    // What a consumer that writes one block while the next is made relies on.
    if (held) assert.equal(decoder.decode(held.block), held.text, "the block being written was overwritten");
    held = { block, text: decoder.decode(block) };
    seen.push(held.text);
  };
  for (let i = 0; i < 200; i++) for (const block of blocks.add(encoder.encode(`line ${i} ${"y".repeat(i % 13)}\n`))) receive(block);
  receive(blocks.finish());
  assert.equal(data(seen.map((text) => encoder.encode(text))).join(""), Array.from({ length: 200 }, (_, i) => `line ${i} ${"y".repeat(i % 13)}\n`).join(""));
});

test("a run of continuation bytes longer than a block is cut at the block's end, every byte kept", () => {
  // Bytes 0x80–0xBF with no character start: before, the copy backed off to nothing and never ended.
  const size = 16;
  const blocks = new DataBlocks(size);
  const line = new Uint8Array([0x7b, 0x22, 0xe6, ...new Array(size * 5 + 3).fill(0x80), 0x22, 0x7d, 0x0a]);
  const out: Uint8Array[] = [];
  for (const block of blocks.add(line)) out.push(block.slice());
  out.push(blocks.finish().slice());
  const open = encoder.encode(OPEN).length;
  const close = encoder.encode(CLOSE).length;
  const joined = out.flatMap((block) => [...block.subarray(open, block.length - close)]);
  assert.deepEqual(joined, [...line]);
  for (const block of out) assert.ok(block.length - open - close <= size);
});
