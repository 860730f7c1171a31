/**
 * A refresh's reads collect garbage when the process holds its budgets of resident memory,
 * looked at every 4 MB read: none under 120 MB (a corpus of small files), the pages freed kept
 * from there, given back from 150 MB and before the records of a long read are saved, and not
 * given back at every look when what is live stays over the budget.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LONG_READ, READ_CHECK_EVERY, READ_COLLECT_FROM, READ_KEEP_FROM, ReadGarbage } from "../../src/catalog/read-garbage.ts";
import { refreshFile } from "../../src/catalog/refresh-file.ts";
import { listingDigest } from "../../src/core/digest/listing-digest.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionText, utf8 } from "./_helpers.ts";

const MB = 1024 * 1024;

/**
 * A refresh reading `reads` × 1 MB, each leaving `garbage` MB behind, with `live` MB that no
 * collection frees (one that keeps the pages frees none of them either); the reads after which it
 * gave pages back and after which it kept them.
 */
function collectedAt(reads: number, live: number, garbage: number): { given: number[]; kept: number[] } {
  let rss = live * MB;
  let read = 0;
  const given: number[] = [];
  const kept: number[] = [];
  const pacer = new ReadGarbage({
    resident: () => rss,
    collect: () => {
      rss = live * MB;
      given.push(read);
    },
    keep: () => kept.push(read),
  });
  for (read = 1; read <= reads; read++) {
    rss += garbage * MB;
    pacer.read(MB);
  }
  assert.equal(pacer.collections, given.length);
  assert.equal(pacer.kept, kept.length);
  return { given, kept };
}

test("a refresh's reads look at resident memory every 4 MB, keep pages from 120 MB on and give them back from 150 MB", () => {
  assert.equal(READ_CHECK_EVERY, 4 * MB);
  assert.equal(READ_KEEP_FROM, 120 * MB);
  assert.equal(READ_COLLECT_FROM, 150 * MB);
  // Under the budgets all along: no collection.
  assert.deepEqual(collectedAt(100, 100, 0.1), { given: [], kept: [] });
  // 4 MB of garbage a megabyte read: kept at the looks at 132 and 148 MB, given back at 164.
  assert.deepEqual(collectedAt(64, 100, 4), { given: [16, 32, 48, 64], kept: [8, 12, 24, 28, 40, 44, 56, 60] });
});

test("a refresh's reads do not give pages back at every look when what is live stays over the budget", () => {
  // 200 MB live: given back at the first look, then once 8 MB more than that are held; kept between.
  const { given, kept } = collectedAt(32, 200, 1);
  assert.deepEqual(given, [4, 12, 20, 28]);
  assert.deepEqual(kept, [8, 16, 24, 32]);
});

test("a read's end gives pages back after a long read (under the budgets too), looks after a shorter one, and does nothing for a short one under the budgets", () => {
  let rss = 130 * MB;
  const garbage = new ReadGarbage({ resident: () => rss, collect: () => {}, keep: () => {} });
  garbage.readDone(LONG_READ);
  assert.equal(garbage.collections, 1);
  garbage.readDone(READ_CHECK_EVERY);
  assert.equal(garbage.kept, 1);
  garbage.readDone(READ_CHECK_EVERY - 1);
  assert.deepEqual([garbage.collections, garbage.kept], [1, 1]);
  rss = 100 * MB;
  garbage.readDone(READ_CHECK_EVERY);
  assert.deepEqual([garbage.collections, garbage.kept], [1, 1]);
  garbage.readDone(LONG_READ);
  assert.deepEqual([garbage.collections, garbage.kept], [2, 1]);
});

test("refreshFile() counts what it reads into the refresh's pacer, and looks again before a long read's records are saved", async () => {
  const fs = new MemoryFileSystem();
  // About 8.7 MB: looks at 4 and 8 MB, one at the end.
  await fs.writeAtomic("/s.jsonl", utf8(sessionText("s", 14_500)));
  const stat = await fs.stat("/s.jsonl");
  assert.ok(stat && stat.size > 2 * READ_CHECK_EVERY && stat.size < 3 * READ_CHECK_EVERY);
  // Resident memory that grows at every look: each one gives pages back.
  let rss = 1024 * MB;
  const garbage = new ReadGarbage({ resident: () => (rss += 100 * MB), collect: () => {}, keep: () => {} });
  await refreshFile(fs, "/s.jsonl", stat, [{ kind: listingDigest }], undefined, undefined, undefined, garbage);
  assert.equal(garbage.collections, 3);
});
