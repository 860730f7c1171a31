/**
 * A long file's search documents leave `refreshFile` in batches while it is read (so indexing a
 * 1 GB session does not hold all its text), and the batches add up to what one batch would be.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type DocRow, docsDigest } from "../../src/core/digest/docs-digest.ts";
import { filesDigest } from "../../src/core/digest/files-digest.ts";
import type { DigestKind } from "../../src/core/digest/digester.ts";
import { refreshFile } from "../../src/catalog/refresh-file.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { sessionText, utf8 } from "./_helpers.ts";

const kind = docsDigest as unknown as DigestKind<unknown, unknown>;

async function setup(turns: number) {
  const fs = new MemoryFileSystem({ chunkSize: 1024 });
  await fs.writeAtomic("/s.jsonl", utf8(sessionText("a", turns)));
  return { fs, stat: (await fs.stat("/s.jsonl"))! };
}

test("refreshFile() hands a long file's documents over in batches that add up to all of them", async () => {
  const { fs, stat } = await setup(200);
  const [whole] = await refreshFile(fs, "/s.jsonl", stat, [{ kind }]);
  const batches: { from: number; rows: DocRow[] }[] = [];
  const [result] = await refreshFile(fs, "/s.jsonl", stat, [{ kind }], undefined, async (job, from, rows) => {
    assert.equal(job, 0);
    batches.push({ from, rows });
  }, 500);
  assert.ok(batches.length > 3, `${batches.length} batches`);
  assert.deepEqual([...batches.flatMap((b) => b.rows), ...(result.docs ?? [])], whole.docs);
  assert.deepEqual(result.record, whole.record);
  // Each batch replaces from where the one before ended: after its rows, before the next ones.
  const froms = [...batches.map((b) => b.from), result.docsFrom!];
  assert.equal(froms[0], 0);
  for (const [k, batch] of batches.entries()) {
    assert.ok(froms[k] <= batch.rows[0].offset);
    assert.ok(froms[k + 1] > batch.rows.at(-1)!.offset);
    const next = batches[k + 1]?.rows[0] ?? result.docs?.[0];
    if (next) assert.ok(froms[k + 1] <= next.offset);
  }
});

test("refreshFile() without a sink keeps every document to the end, from the read's start", async () => {
  const { fs, stat } = await setup(20);
  const [result] = await refreshFile(fs, "/s.jsonl", stat, [{ kind }], undefined, undefined, 10);
  assert.equal(result.docsFrom, 0);
  assert.ok((result.docs?.length ?? 0) >= 20);
});

test("refreshFile() parses an assistant line once for the file references and the documents, and each digest gives what it gives alone", async () => {
  const { fs, stat } = await setup(30);
  const kinds = [filesDigest, docsDigest].map((k) => ({ kind: k as unknown as DigestKind<unknown, unknown> }));
  const alone = [];
  for (const job of kinds) alone.push((await refreshFile(fs, "/s.jsonl", stat, [job]))[0]);
  const parse = JSON.parse;
  let assistantParses = 0;
  JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
    if (typeof text === "string" && text.includes('"role":"assistant"')) assistantParses++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  let together;
  try {
    together = await refreshFile(fs, "/s.jsonl", stat, kinds);
  } finally {
    JSON.parse = parse;
  }
  assert.equal(assistantParses, 30);
  assert.deepEqual(together.map((r) => r.record), alone.map((r) => r.record));
  assert.deepEqual(together[1].docs, alone[1].docs);
});
