/**
 * The `FileSystem` adapter for Bun: the node adapter, which Bun runs natively, except that a big
 * file is written past the page cache (`_direct-write.ts`), in buffers whose address `bun:ffi`
 * tells. Bun's own `Bun.file(...).stream()` was tried for reads and measured slower here (Bun
 * 1.4.5: a whole 1.2 MB session read and parsed in 43 ms against 29 ms; the 90 MB one in
 * 1,380 ms against 890 ms).
 * @module
 */

import type { FileStat, FileSystem, WriteData } from "./file-system.ts";
import { ALIGN, type AlignedBuffer, writeTempDirect } from "./_direct-write.ts";
import { type FfiStat, ffiStat } from "./_ffi-stat.ts";
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

/** Stats made through the node adapter before `bun:ffi` is set up for the rest. */
const STATS_BEFORE_FFI = 2000;
/**
 * What a stat of a whole folder's files counts for (`each`): what a full check makes, 25,000 of
 * them at 25,000 sessions, where a run's other stats are a few hundred folders and files. Counted
 * once each, a full check made its first 2,000 at 9 µs (the node adapter's) against 3: `list
 * --all` checking in full took 287.5 ms, 280.4 so (`perf stat -r 10`); a quick check that finds a
 * folder of 100 sessions changed still makes no set-up.
 */
export const FOLDER_STAT_WEIGHT = 4;

/** A blocking stat, and where it has them, its stats of a folder's stem and a name in it, or many. */
type StagedStat = ((path: string) => FileStat | null) & Partial<Pick<FfiStat, "in" | "each">>;

/**
 * A blocking stat through `statNow` for the first `before` calls (of a path or of a stem and a
 * name), then through the one `makeFast` gives, where it gives one. Setting up `bun:ffi` (loading
 * it, and compiling the call into the C library) took 2 to 5 ms at every run's start to save about
 * a microsecond a stat: a full check of 25,000 files gains 20 ms by it, a quick check of 300
 * folders nothing.
 */
export function statThenFfi(
  statNow: (path: string) => FileStat | null,
  makeFast: () => StagedStat | undefined,
  before = STATS_BEFORE_FFI,
): FfiStat {
  let left = before;
  let fast: StagedStat | undefined;
  /** The fast stat once `count` more stats make `before` (undefined until then, or without one). */
  const ready = (count = 1): StagedStat | undefined => {
    if (left > 0 && (left -= Math.min(count, left)) === 0) fast = makeFast();
    return fast;
  };
  const stat = ((path: string) => (ready() ?? statNow)(path)) as FfiStat;
  stat.in = (stem, name) => {
    const now = ready();
    return now?.in ? now.in(stem, name) : (now ?? statNow)(stem + name);
  };
  stat.each = (stem, names) => {
    const now = ready(names.length * FOLDER_STAT_WEIGHT);
    if (now?.each) return now.each(stem, names);
    return names.map((name) => (now?.in ? now.in(stem, name) : (now ?? statNow)(stem + name)));
  };
  return stat;
}

/** The node adapter's blocking stat, through the C library's `stat` where `bun:ffi` can call it (_ffi-stat.ts), after the first few. */
const statNow = statThenFfi(nodeFileSystem.statNow!, () => ffiStat(nodeFileSystem.statNow!));

/** `FileSystem` for Bun; use it only when running under Bun. */
export const bunFileSystem: FileSystem = {
  ...nodeFileSystem,
  stat: async (path) => statNow(path),
  statNow,
  statNowIn: statNow.in,
  statNowEach: statNow.each,
  writeAtomic: atomicWriter(writeTemp),
};
