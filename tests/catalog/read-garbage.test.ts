/**
 * A refresh's reads collect garbage when the process holds its budget of resident memory (160
 * MB), looked at every 8 MB read: none under it (a corpus of small files), as many as a long
 * read needs over it, and not at every look when what is live stays over it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { READ_CHECK_EVERY, READ_COLLECT_FROM, ReadGarbage } from "../../src/catalog/read-garbage.ts";
import { refreshFile } from "../../src/catalog/refresh-file.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionText, utf8 } from "./_helpers.ts";

const MB = 1024 * 1024;

/**
 * A refresh reading `reads` × 1 MB, each leaving `garbage` MB behind, with `live` MB that no
 * collection frees; the reads after which it collected.
 */
function collectedAt(reads: number, live: number, garbage: number): number[] {
  let rss = live * MB;
  let read = 0;
  const at: number[] = [];
  const pacer = new ReadGarbage({
    resident: () => rss,
    collect: () => {
      rss = live * MB;
      at.push(read);
    },
  });
  for (read = 1; read <= reads; read++) {
    rss += garbage * MB;
    pacer.read(MB);
  }
  assert.equal(pacer.collections, at.length);
  return at;
}

test("a refresh's reads look at resident memory every 8 MB and collect from 160 MB on", () => {
  assert.equal(READ_CHECK_EVERY, 8 * MB);
  assert.equal(READ_COLLECT_FROM, 160 * MB);
  // Under the budget all along: no collection.
  assert.deepEqual(collectedAt(100, 100, 0.5), []);
  // 4 MB of garbage a megabyte read: over the budget after the 15th, collected at the look after the 16th.
  assert.deepEqual(collectedAt(64, 100, 4), [16, 32, 48, 64]);
});

test("a refresh's reads do not collect at every look when what is live stays over the budget", () => {
  // 200 MB live: collected at the first look, then once 16 MB more than that are held.
  assert.deepEqual(collectedAt(64, 200, 1), [8, 24, 40, 56]);
});

test("refreshFile() counts what it reads into the refresh's pacer, and looks again before a long read's records are saved", async () => {
  const fs = new MemoryFileSystem();
  // About 8.7 MB: one look at 8 MB, one at the end.
  await fs.writeAtomic("/s.jsonl", utf8(sessionText("s", 14_500)));
  const stat = await fs.stat("/s.jsonl");
  assert.ok(stat && stat.size > READ_CHECK_EVERY && stat.size < 2 * READ_CHECK_EVERY);
  // Resident memory that grows at every look: each one collects.
  let rss = 1024 * MB;
  const garbage = new ReadGarbage({ resident: () => (rss += 100 * MB), collect: () => {} });
  await refreshFile(fs, "/s.jsonl", stat, [{ kind: listingDigest }], undefined, undefined, undefined, garbage);
  assert.equal(garbage.collections, 2);
});
