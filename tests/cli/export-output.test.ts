/**
 * `writeOutput` asks for the next chunk as soon as it hands one to the file system, so a chunk is
 * made while the one before it is written; the bytes are the same, a producer's failure is the
 * error it throws (no temp file left), and a failed write stops the producer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CliContext } from "../../src/cli/context.ts";
import { writeOutput } from "../../src/cli/export-output.ts";
import { DataBlocks } from "../../src/export/html/data-blocks.ts";
import type { WriteData } from "../../src/io/file-system.ts";
import { FsError } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { wrap } from "./_fs-wrappers.ts";

const target = { kind: "file" as const, path: "/out/x.html", force: false };

function memory(): MemoryFileSystem {
  const fs = new MemoryFileSystem({ cwd: "/" });
  return fs;
}

async function read(fs: MemoryFileSystem, path: string): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of fs.read(path)) parts.push(chunk.slice());
  return new TextDecoder().decode(Buffer.concat(parts));
}

/** A turn of the event loop (a write that takes a while). */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("writeOutput()", () => {
  it("makes the next chunk while one is written, and writes the same bytes", async () => {
    const inner = memory();
    await inner.mkdir("/out", { recursive: true });
    const log: string[] = [];
    // Chunks of 1 MiB or more pass through unjoined: the HTML data blocks, reused buffers and all.
    const blocks = new DataBlocks(1024 * 1024);
    const lines = Array.from({ length: 5 }, (_, k) => new TextEncoder().encode(`${String(k).repeat(700_000)}<\n`));
    async function* made(): AsyncIterable<Uint8Array> {
      for (const [k, line] of lines.entries()) {
        for (const block of blocks.add(line)) {
          log.push(`made ${k}`);
          yield block;
        }
      }
      yield blocks.finish();
    }
    const fs = wrap(inner, {
      writeAtomic: (path: string, data: WriteData, options) =>
        inner.writeAtomic(path, (async function* () {
          for await (const chunk of data as AsyncIterable<Uint8Array>) {
            log.push("write");
            // Written a turn later: the next chunk is made meanwhile.
            await tick();
            yield chunk.slice();
            log.push("written");
          }
        })(), options),
    });
    const bytes = await writeOutput({ fs } as unknown as CliContext, target, made());
    const text = await read(inner, target.path);
    assert.equal(bytes, new TextEncoder().encode(text).length);
    const expected = lines.map((line) => new TextDecoder().decode(line).replaceAll("<", "\\u003c")).join("");
    assert.equal(text.replace(/<\/?script[^>]*>\n?/g, ""), expected);
    // The second chunk was made before the first was written (one by one: made, write, written, made, …).
    const madeBeforeWritten = log.slice(0, log.indexOf("written")).filter((e) => e.startsWith("made")).length;
    assert.equal(madeBeforeWritten, 2, log.join(", "));
  });

  it("throws a producer's failure as it is, and leaves no file behind", async () => {
    const fs = memory();
    await fs.mkdir("/out", { recursive: true });
    async function* failing(): AsyncIterable<Uint8Array> {
      yield new Uint8Array(2 * 1024 * 1024).fill(0x61);
      throw new Error("the session went away");
    }
    await assert.rejects(writeOutput({ fs } as unknown as CliContext, target, failing()), /the session went away/);
    assert.deepEqual((await fs.list("/out")).map((e) => e.name), []);
  });

  it("stops the producer when a write fails", async () => {
    const inner = memory();
    await inner.mkdir("/out", { recursive: true });
    let closed = false;
    let made = 0;
    async function* endless(): AsyncIterable<Uint8Array> {
      try {
        while (true) {
          made++;
          yield new Uint8Array(2 * 1024 * 1024).fill(0x62);
        }
      } finally {
        closed = true;
      }
    }
    const fs = wrap(inner, {
      writeAtomic: async (path: string, data: WriteData) => {
        for await (const _ of data as AsyncIterable<Uint8Array>) throw new FsError("Other", path, "No space left on device");
      },
    });
    await assert.rejects(writeOutput({ fs } as unknown as CliContext, target, endless()), /No space left/);
    assert.ok(closed, "the producer was closed");
    assert.ok(made <= 2, `${made} chunks made: one ahead at most`);
  });
});
