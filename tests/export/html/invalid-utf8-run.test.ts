/**
 * `export --format html` of a line holding more continuation bytes (0x80–0xBF) in a row than a
 * data block holds ends, and keeps every byte of the line (the data-block copy used to back
 * off to nothing and loop, growing memory).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { header, memoryFs, readBytes, runCli, sessionDir, writeText } from "../../cli/_harness.ts";

/** The bytes of a session whose one message holds `run` continuation bytes. */
function session(run: number): Uint8Array {
  const encoder = new TextEncoder();
  const head = encoder.encode(JSON.stringify(header("utf80001")) + "\n" + '{"type":"message","id":"u1","parentId":null,"timestamp":"2025-06-01T10:00:01.000Z","message":{"role":"user","content":"x');
  const tail = encoder.encode('","timestamp":1}}\n');
  const bytes = new Uint8Array(head.length + run + tail.length).fill(0x80);
  bytes.set(head);
  bytes.set(tail, head.length + run);
  return bytes;
}

/** How many 0x80 bytes the HTML export of `bytes` holds. */
async function exported(bytes: Uint8Array): Promise<number> {
  const fs = memoryFs();
  await writeText(fs, `${sessionDir()}/2025-06-01T10-00-00-000Z_utf80001.jsonl`, bytes);
  const out = "/work/proj/out.html";
  const result = await runCli(["export", "@", "-o", out, "--mkdir"], { fs });
  assert.equal(result.code, 0, result.stderr);
  let count = 0;
  for (const b of await readBytes(fs, out)) if (b === 0x80) count++;
  return count;
}

test("export html of a line with a 5 MiB run of UTF-8 continuation bytes finishes with every byte", { timeout: 120_000 }, async () => {
  const run = 5 * 1024 * 1024;
  // The page's own script and style hold some 0x80 bytes (in "…" and the like): counted apart.
  assert.equal(await exported(session(run)) - await exported(session(0)), run);
});
