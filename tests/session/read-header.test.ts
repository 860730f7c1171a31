import assert from "node:assert/strict";
import { test } from "node:test";
import { readHeader } from "../../src/session/read-header.ts";
import { CountingFileSystem } from "../catalog/_helpers.ts";
import { header, jsonl, memoryFs, userEntry, writeText } from "../cli/_harness.ts";

test("readHeader() reads a short header in one small read, and a header line longer than that whole", async () => {
  const disk = memoryFs();
  await writeText(disk, "/s/short.jsonl", jsonl(header("short111"), userEntry("u1", null, "x".repeat(200_000))));
  const long = header("long2222", "/work/proj", { note: "y".repeat(100_000) });
  await writeText(disk, "/s/long.jsonl", jsonl(long, userEntry("u1", null, "hi")));
  const fs = new CountingFileSystem(disk);
  assert.equal((await readHeader(fs, "/s/short.jsonl"))?.id, "short111");
  assert.ok(fs.bytes <= 4096, `read ${fs.bytes} bytes for a short header`);
  assert.deepEqual(await readHeader(fs, "/s/long.jsonl"), long);
});
