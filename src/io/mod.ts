/**
 * File access for pi-session: the `FileSystem` interface, one adapter per runtime
 * (node, deno, bun, memory), `detectFileSystem` to pick one at start-up, and `withFileLock`.
 * @module
 */

import type { FileSystem } from "./file-system.ts";
import { bunFileSystem } from "./bun.ts";
import { denoFileSystem } from "./deno.ts";
import { nodeFileSystem } from "./node.ts";

export * from "./file-system.ts";
export { bunFileSystem } from "./bun.ts";
export { denoFileSystem } from "./deno.ts";
export { nodeFileSystem } from "./node.ts";
export { MemoryFileSystem, type MemoryFileSystemOptions, type MemoryWriteStep } from "./memory.ts";
export { withFileLock, type FileLockOptions } from "./lock.ts";

/**
 * The adapter for the runtime this code runs on: bun when `globalThis.Bun` exists, deno when
 * `globalThis.Deno` does, else node. Call it once at start-up and pass the result down.
 *
 * @example Choosing at start-up
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoFileSystem, detectFileSystem } from "./mod.ts";
 *
 * const fs = detectFileSystem(); // under Deno, as here
 * assert.equal(fs, denoFileSystem);
 * assert.equal(await fs.stat("no-such-session.jsonl"), null);
 * ```
 */
export function detectFileSystem(): FileSystem {
  const runtime = globalThis as { Bun?: unknown; Deno?: unknown };
  if (runtime.Bun !== undefined) return bunFileSystem;
  if (runtime.Deno !== undefined) return denoFileSystem;
  return nodeFileSystem;
}
