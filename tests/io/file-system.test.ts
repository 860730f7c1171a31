/**
 * Runs the shared contract against every adapter this runtime can host: memory and node
 * always, deno under Deno, bun under Bun.
 * @module
 */

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { test } from "node:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bunFileSystem } from "../../src/io/bun.ts";
import { denoFileSystem } from "../../src/io/deno.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { describeFileSystemContract, type FsFixture } from "./file-system-contract.ts";

async function onDisk(fs: FileSystem): Promise<FsFixture> {
  const root = await mkdtemp(join(tmpdir(), "pi-session-fs-"));
  return { fs, root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

describeFileSystemContract("memory", async () => {
  const fs = new MemoryFileSystem({ cwd: "/home/user" });
  await fs.mkdir("/tmp/work", { recursive: true });
  return { fs, root: "/tmp/work", cleanup: async () => {} };
});

describeFileSystemContract("node", () => onDisk(nodeFileSystem));

if ("Deno" in globalThis) describeFileSystemContract("deno", () => onDisk(denoFileSystem));

if ("Bun" in globalThis) describeFileSystemContract("bun", () => onDisk(bunFileSystem));

test("the node adapter reads a named pipe to its end (`<(…)`, /dev/stdin in a pipeline)", async (t) => {
  const root = await mkdtemp(join(tmpdir(), "pi-session-fifo-"));
  try {
    const fifo = join(root, "session.jsonl");
    try {
      execFileSync("mkfifo", [fifo]);
    } catch {
      t.skip("no mkfifo here");
      return;
    }
    const text = Array.from({ length: 5000 }, (_, i) => `{"line":${i},"pad":"${"x".repeat(300)}"}\n`).join("");
    // A separate process writes, as a shell would (from a file: our reads block this thread).
    const source = join(root, "source.jsonl");
    await writeFile(source, text);
    spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", source, fifo], { stdio: "ignore" });
    const parts: Uint8Array[] = [];
    for await (const chunk of nodeFileSystem.read(fifo)) parts.push(new Uint8Array(chunk));
    assert.equal(new TextDecoder().decode(Buffer.concat(parts)), text);
    assert.ok(text.length > 1024 * 1024, "more than one chunk");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
