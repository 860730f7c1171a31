/**
 * Runs the shared contract against every adapter this runtime can host: memory and node
 * always, deno under Deno, bun under Bun.
 * @module
 */

import { lstat, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import assert from "node:assert/strict";
import { test } from "node:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bunFileSystem } from "../../src/io/bun.ts";
import { denoFileSystem } from "../../src/io/deno.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import { nodeFileSystem } from "../../src/io/node.ts";
import { nodeSyncFileSystem } from "../../src/io/node-sync.ts";
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

/** Links need a real disk (the memory adapter has none): every on-disk adapter this runtime hosts. */
const diskAdapters: [string, FileSystem][] = [
  ["node", nodeFileSystem],
  ...("Deno" in globalThis ? [["deno", denoFileSystem] as [string, FileSystem]] : []),
  ...("Bun" in globalThis ? [["bun", bunFileSystem] as [string, FileSystem]] : []),
];

for (const [name, fs] of diskAdapters) {
  test(`${name}: writeAtomic() never renames over a pipe or a device (as root, over /dev/null, it made a plain file of it)`, async () => {
    const { root, cleanup } = await onDisk(fs);
    try {
      const fifo = join(root, "pipe");
      execFileSync("mkfifo", [fifo]);
      await assert.rejects(fs.writeAtomic(fifo, new TextEncoder().encode("x\n")), /device, a pipe or a socket/);
      assert.ok((await lstat(fifo)).isFIFO(), "still a pipe");
      assert.throws(() => nodeSyncFileSystem.writeAtomic(fifo, new TextEncoder().encode("x\n")), /device, a pipe or a socket/);
      assert.ok((await lstat(fifo)).isFIFO(), "still a pipe after the blocking write");
      // A link to a pipe is a name of its own: replacing the link leaves the pipe alone.
      await symlink(fifo, join(root, "link"));
      await fs.writeAtomic(join(root, "link"), new TextEncoder().encode("x\n"));
      assert.ok((await lstat(fifo)).isFIFO());
    } finally {
      await cleanup();
    }
  });

  test(`${name}: realPath() resolves symbolic links to the file they point to`, async () => {
    const { root, cleanup } = await onDisk(fs);
    try {
      await mkdir(join(root, "real"));
      await writeFile(join(root, "real", "a.jsonl"), "{}\n");
      await symlink(join(root, "real", "a.jsonl"), join(root, "link.jsonl"));
      await symlink(join(root, "real"), join(root, "dir-link"));
      const target = await fs.realPath(join(root, "real", "a.jsonl"));
      assert.equal(await fs.realPath(join(root, "link.jsonl")), target);
      assert.equal(await fs.realPath(join(root, "dir-link", "a.jsonl")), target);
    } finally {
      await cleanup();
    }
  });


  test(`${name}: list() follows links for their kind; a dangling link or a loop is neither kind and fails nothing`, async () => {
    const { root, cleanup } = await onDisk(fs);
    try {
      await writeFile(join(root, "a.jsonl"), "{}\n");
      await mkdir(join(root, "sub"));
      await symlink(join(root, "a.jsonl"), join(root, "to-file.jsonl"));
      await symlink(join(root, "sub"), join(root, "to-dir"));
      await symlink(join(root, "missing"), join(root, "dangling.jsonl"));
      await symlink(join(root, "loop-b.jsonl"), join(root, "loop-a.jsonl"));
      await symlink(join(root, "loop-a.jsonl"), join(root, "loop-b.jsonl"));
      const listed = (await fs.list(root)).sort((x, y) => x.name.localeCompare(y.name));
      assert.deepEqual(listed, [
        { name: "a.jsonl", isFile: true, isDirectory: false },
        { name: "dangling.jsonl", isFile: false, isDirectory: false },
        { name: "loop-a.jsonl", isFile: false, isDirectory: false },
        { name: "loop-b.jsonl", isFile: false, isDirectory: false },
        { name: "sub", isFile: false, isDirectory: true },
        { name: "to-dir", isFile: false, isDirectory: true },
        { name: "to-file.jsonl", isFile: true, isDirectory: false },
      ]);
    } finally {
      await cleanup();
    }
  });
}

for (const [name, fs] of diskAdapters) {
  test(`${name}: realPath() follows links to where they lead`, async () => {
    const { root, cleanup } = await onDisk(fs);
    try {
      await mkdir(join(root, "outside"));
      await writeFile(join(root, "outside", "s.jsonl"), "{}\n");
      await mkdir(join(root, "inside"));
      await symlink(join(root, "outside", "s.jsonl"), join(root, "inside", "link.jsonl"));
      const real = await fs.realPath!(join(root, "outside", "s.jsonl"));
      assert.equal(await fs.realPath!(join(root, "inside", "link.jsonl")), real);
      assert.ok(real.endsWith(join("outside", "s.jsonl")));
    } finally {
      await cleanup();
    }
  });
}

test("nodeSyncFileSystem.read() reads into the buffer it is given when the bytes fit, else into a fresh one", async () => {
  const { root, cleanup } = await onDisk(nodeFileSystem);
  try {
    const path = join(root, "f.txt");
    await writeFile(path, "abcdefghij");
    const into = new Uint8Array(4);
    const fits = nodeSyncFileSystem.read(path, 2, 6, into);
    assert.equal(new TextDecoder().decode(fits), "cdef");
    assert.equal(fits.buffer, into.buffer);
    // Shorter at the end of the file, still in the buffer.
    assert.equal(new TextDecoder().decode(nodeSyncFileSystem.read(path, 8, 12, into)), "ij");
    const larger = nodeSyncFileSystem.read(path, 0, 10, into);
    assert.equal(new TextDecoder().decode(larger), "abcdefghij");
    assert.notEqual(larger.buffer, into.buffer);
    assert.equal(new TextDecoder().decode(into), "ijef", "left as the last read that fitted made it");
  } finally {
    await cleanup();
  }
});
