/**
 * Runs the shared contract against every adapter this runtime can host: memory and node
 * always, deno under Deno, bun under Bun.
 * @module
 */

import { mkdtemp, rm } from "node:fs/promises";
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
