/**
 * A refresh saves its changes in batches bounded by files (the store's `recordBatch`), by
 * the bytes of session files read into them and by the text of their search documents: records
 * and documents hold what their files said until saved, so a batch of large files is saved
 * sooner than one of small files, and one of files full of text sooner still. A long read's
 * records, once saved, are collected before the next read.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ReadGarbage } from "../../src/catalog/read-garbage.ts";
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

test("a long read's records are collected once saved, before the next read and at the end; short reads' are not", { timeout: 120_000 }, async () => {
  const fs = new MemoryFileSystem();
  await fs.mkdir("/s", { recursive: true });
  const events: string[] = [];
  // Resident memory under the budgets: only a long read's end and its save collect.
  const garbage = new ReadGarbage({ resident: () => 0, collect: () => events.push("collect"), keep: () => events.push("keep") });
  const run = startRun({
    fs,
    recordBatch: 1,
    clock: () => 0,
    save: async (_kind, changes) => void events.push(`save ${changes.put.map((r) => r.path).join(" ")}`),
    warn: () => {},
    garbage,
  }, [listingDigest], {});
  // Past LONG_READ (64 MB), between short files; the long one last too. One long message: quick to read.
  const long = sessionText("long", 1) + JSON.stringify({ type: "message", id: "big", parentId: null, timestamp: "2025-06-01T11:00:00.000Z", message: { role: "user", content: "word ".repeat(14_000_000), timestamp: 0 } }) + "\n";
  assert.ok(long.length > 65 * 1024 * 1024, `${long.length}`);
  const files: [string, string][] = [["/s/a.jsonl", sessionText("a", 2)], ["/s/long.jsonl", long], ["/s/b.jsonl", sessionText("b", 2)], ["/s/c.jsonl", sessionText("c", 2)], ["/s/z.jsonl", long]];
  for (const [path, text] of files) {
    await fs.writeAtomic(path, utf8(text));
    events.push(`read ${path}`);
    await run.read(path, (await fs.stat(path))!, [undefined]);
  }
  await run.end();
  assert.deepEqual(events, [
    "read /s/a.jsonl", "save /s/a.jsonl",
    // Given back at the read's end (`readDone`), and again once its records were saved.
    "read /s/long.jsonl", "collect", "save /s/long.jsonl",
    "read /s/b.jsonl", "collect", "save /s/b.jsonl",
    "read /s/c.jsonl", "save /s/c.jsonl",
    "read /s/z.jsonl", "collect", "save /s/z.jsonl", "save ", "collect",
  ]);
});
