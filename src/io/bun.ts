/**
 * The `FileSystem` adapter for Bun: large reads stream through `Bun.file(...).slice().stream()`,
 * Bun's fast path; small ranges and everything else are the node adapter, which Bun runs natively.
 * @module
 */

import type { FileSystem, ReadRange } from "./file-system.ts";
import { mapError } from "./_map-error.ts";
import { nodeFileSystem } from "./node.ts";

// Loose on purpose: `Bun` is touched only inside functions, so Node can import this module.
// deno-lint-ignore no-explicit-any
declare const Bun: any;

/** Ranges up to this size go through the node adapter's single blocking read (cheaper than a stream). */
const SMALL_RANGE = 1024 * 1024;

async function* read(path: string, range: ReadRange = {}): AsyncGenerator<Uint8Array> {
  const start = Math.max(0, range.start ?? 0);
  if (range.end !== undefined && range.end - start <= SMALL_RANGE) {
    yield* nodeFileSystem.read(path, range);
    return;
  }
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    // Bun opens the file lazily: a missing file or a directory fails at the first read.
    reader = (Bun.file(path).slice(start, range.end).stream() as ReadableStream<Uint8Array>).getReader();
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } catch (error) {
    throw mapError(error, { verb: "read", path });
  } finally {
    // Stops the underlying read (and closes the file) when the caller breaks off early.
    await reader?.cancel().catch(() => {});
  }
}

/** `FileSystem` for Bun; use it only when running under Bun. */
export const bunFileSystem: FileSystem = { ...nodeFileSystem, read };
