/**
 * The `FileSystem` adapter for Bun: the node adapter, which Bun runs natively, except that a big
 * file is written past the page cache (`_direct-write.ts`), in buffers whose address `bun:ffi`
 * tells. Bun's own `Bun.file(...).stream()` was tried for reads and measured slower here (Bun
 * 1.4.5: a whole 1.2 MB session read and parsed in 43 ms against 29 ms; the 90 MB one in
 * 1,380 ms against 890 ms).
 * @module
 */

import type { FileSystem, WriteData } from "./file-system.ts";
import { ALIGN, type AlignedBuffer, writeTempDirect } from "./_direct-write.ts";
import { ffiStat } from "./_ffi-stat.ts";
import { atomicWriter, nodeFileSystem } from "./node.ts";

let aligner: Promise<AlignedBuffer> | undefined;

/** Aligned buffers where `bun:ffi` says where a buffer is; none elsewhere (everything then goes through the cache). */
function alignedBuffers(): Promise<AlignedBuffer> {
  aligner ??= (async () => {
    try {
      // A name the type checker and the other runtimes do not resolve: loaded only under Bun.
      const name = "bun:ffi";
      const { ptr } = (await import(name)) as { ptr: (view: Uint8Array) => number };
      return (size: number) => {
        const raw = new Uint8Array(size + ALIGN);
        const skew = (ALIGN - (ptr(raw) % ALIGN)) % ALIGN;
        return raw.subarray(skew, skew + size);
      };
    } catch {
      return () => null;
    }
  })();
  return aligner;
}

async function writeTemp(temp: string, data: WriteData, mode: number): Promise<void> {
  await writeTempDirect(temp, data, mode, await alignedBuffers());
}

/** The node adapter's blocking stat, through the C library's `stat` where `bun:ffi` can call it (_ffi-stat.ts). */
const ffi = ffiStat(nodeFileSystem.statNow!);
const statNow = ffi ?? nodeFileSystem.statNow!;

/** `FileSystem` for Bun; use it only when running under Bun. */
export const bunFileSystem: FileSystem = {
  ...nodeFileSystem,
  stat: async (path) => statNow(path),
  statNow,
  ...(ffi ? { statNowIn: ffi.in } : {}),
  writeAtomic: atomicWriter(writeTemp),
};
