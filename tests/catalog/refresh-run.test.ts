/**
 * A refresh saves its changes in batches bounded by files (the store's `recordBatch`), by
 * the bytes of session files read into them and by the text of their search documents: records
 * and documents hold what their files said until saved, so a batch of large files is saved
 * sooner than one of small files, and one of files full of text sooner still.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { BATCH_TEXT, startRun } from "../../src/catalog/refresh-run.ts";
import type { DigestKind } from "../../src/core/digest/digester.ts";
import { docsDigest } from "../../src/core/digest/docs-digest.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionText, utf8 } from "./_helpers.ts";

/**
 * Runs a cold refresh of `files` files of about `turns` × 600 bytes each (or of the texts `make`
 * gives) for `kind`; the files in each save.
 */
// deno-lint-ignore no-explicit-any
async function savedBatches(files: number, turns: number, kind: DigestKind<any, any> = listingDigest, make = (id: string) => sessionText(id, turns)): Promise<number[]> {
  const fs = new MemoryFileSystem();
  await fs.mkdir("/s", { recursive: true });
  const saves: number[] = [];
  const run = startRun({
    fs,
    recordBatch: 128,
    clock: () => 0,
    save: async (_kind, changes) => void saves.push(changes.put.length),
    warn: () => {},
  }, [kind], {});
  for (let n = 0; n < files; n++) {
    const path = `/s/${n}.jsonl`;
    await fs.writeAtomic(path, utf8(make(`id-${n}`)));
    const stat = await fs.stat(path);
    assert.ok(stat);
    await run.read(path, stat, [undefined]);
  }
  await run.end();
  return saves.filter((count) => count > 0);
}

test("a refresh saves a batch of small files at the store's count of files", async () => {
  assert.deepEqual(await savedBatches(300, 1), [128, 128, 44]);
});

test("a refresh saves a batch of large files once 4 MB of them were read, before the count of files", async () => {
  // About 1.26 MB a file: the fourth brings the batch past 4 MB.
  const batches = await savedBatches(10, 1700);
  assert.deepEqual(batches, [4, 4, 2]);
});

test("a refresh saves a batch of files full of text once 128 K characters of documents were read, before their bytes or count", async () => {
  // A message of 30,000 characters a file (30 KB, under DOCS_HELD): the fifth brings the batch past BATCH_TEXT.
  const text = "word ".repeat(6_000);
  const session = (id: string) =>
    [
      { type: "session", version: 3, id, timestamp: "2025-06-01T10:00:00.000Z", cwd: "/work/p" },
      { type: "message", id: `u-${id}`, parentId: null, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: text, timestamp: 0 } },
    ].map((line) => JSON.stringify(line) + "\n").join("");
  assert.equal(BATCH_TEXT, 128 * 1024);
  assert.deepEqual(await savedBatches(10, 0, docsDigest, session), [5, 5]);
});
