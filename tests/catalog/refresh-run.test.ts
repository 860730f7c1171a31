/**
 * A refresh saves its changes in batches bounded by files (the store's `recordBatch`) and by
 * the bytes of session files read into them: records and documents hold what their files said
 * until saved, so a batch of large files is saved sooner than one of small files.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startRun } from "../../src/catalog/refresh-run.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionText, utf8 } from "./_helpers.ts";

/** Runs a cold refresh of `files` files of about `turns` × 600 bytes each; the files in each save. */
async function savedBatches(files: number, turns: number): Promise<number[]> {
  const fs = new MemoryFileSystem();
  await fs.mkdir("/s", { recursive: true });
  const saves: number[] = [];
  const run = startRun({
    fs,
    recordBatch: 128,
    clock: () => 0,
    save: async (_kind, changes) => void saves.push(changes.put.length),
    warn: () => {},
  }, [listingDigest], {});
  for (let n = 0; n < files; n++) {
    const path = `/s/${n}.jsonl`;
    await fs.writeAtomic(path, utf8(sessionText(`id-${n}`, turns)));
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
