/**
 * The lines of chosen entries of a session file, in the order asked for (a branch, root to
 * leaf), in bounded memory: the list is taken a batch at a time (a few megabytes of lines),
 * each batch read by byte ranges in file order (close ranges merged) and handed out in list
 * order. An append-only branch is file order, so its batches are one forward read each.
 * @module
 */
import { decodeLine } from "../core/read/decode-line.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { LineSplitter } from "../core/read/line-splitter.ts";
import type { SkeletonEntry } from "../core/read/skeleton-reader.ts";
import type { FileSystem } from "../io/file-system.ts";
import { collectInPass } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";

/** Bytes of wanted lines per batch (a longer line makes a batch of its own). */
const BATCH_BYTES = 4 * 1024 * 1024;

/** Wanted lines closer than this are read in one range rather than two. */
const MERGE_GAP = 64 * 1024;

/** A growable buffer that holds one batch of lines, reused from batch to batch. */
class BatchBuffer {
  bytes = new Uint8Array(64 * 1024);
  used = 0;

  /** Copies `line` in; returns where it starts. */
  add(line: Uint8Array): number {
    if (this.used + line.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + line.length));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.bytes.set(line, this.used);
    this.used += line.length;
    return this.used - line.length;
  }
}

/**
 * Where chosen lines are, in typed arrays (a few bytes a line): what a long read in a wanted
 * order keeps, so the light pass's objects can be let go before it starts.
 */
export interface LinePlaces {
  offsets: Float64Array;
  lengths: Float64Array;
  /** 1-based line numbers, for problem messages. */
  numbers: Float64Array;
}

/** The places of `items`' lines, in the order given. */
export function linePlaces(items: readonly SkeletonEntry[]): LinePlaces {
  const places = { offsets: new Float64Array(items.length), lengths: new Float64Array(items.length), numbers: new Float64Array(items.length) };
  items.forEach((item, i) => {
    places.offsets[i] = item.offset;
    places.lengths[i] = item.length;
    places.numbers[i] = item.line;
  });
  return places;
}

/**
 * Reads the lines `wanted` (indices into `places`, sorted by offset, no two at one offset) into
 * `buffer`; gives where each line's bytes start there, by offset.
 */
async function readBatch(fs: FileSystem, path: string, places: LinePlaces, wanted: number[], buffer: BatchBuffer): Promise<Map<number, number>> {
  const at = new Map<number, number>();
  const { offsets, lengths } = places;
  buffer.used = 0;
  for (let i = 0; i < wanted.length;) {
    let j = i + 1;
    let end = offsets[wanted[i]] + lengths[wanted[i]];
    while (j < wanted.length && offsets[wanted[j]] - end <= MERGE_GAP) {
      end = Math.max(end, offsets[wanted[j]] + lengths[wanted[j]]);
      j++;
    }
    const start = offsets[wanted[i]];
    let next = i;
    const splitter = new LineSplitter((line) => {
      if (next >= j || start + line.offset !== offsets[wanted[next]]) return;
      next++;
      at.set(start + line.offset, buffer.add(line.bytes));
    });
    for await (const chunk of fs.read(path, { start, end, reuseBuffer: true })) splitter.push(chunk);
    splitter.end();
    i = j;
  }
  return at;
}

/**
 * The raw bytes (no newline) of each place's line, in the order of `places` (repeats allowed),
 * with its index. The bytes are valid until the next line is asked for. Lines are read a batch
 * at a time into one reused buffer, and parsed (by the caller) only as they are handed out:
 * what is parsed dies young, which keeps a garbage collector's old generation small.
 *
 * @example
 * ```ts
 * // for await (const { index, bytes } of orderedLines(fs, path, linePlaces(branchItems))) …
 * ```
 *
 * `collectEvery`: bytes read between two garbage collections (fewer for a caller that makes
 * more garbage of each line than parsing it does).
 */
export async function* orderedLines(fs: FileSystem, path: string, places: LinePlaces, collectEvery = 16 * 1024 * 1024): AsyncIterable<{ index: number; bytes: Uint8Array }> {
  const { offsets, lengths } = places;
  const count = offsets.length;
  const buffer = new BatchBuffer();
  // Every line read is parsed by the caller, and more garbage made of it: collected often, the
  // pages freed kept for the next batches under a budget (`collectInPass`).
  const pacer = new GarbagePacer({ everyAmount: collectEvery, collect: () => collectInPass() });
  for (let i = 0; i < count;) {
    let j = i;
    let size = 0;
    while (j < count && (j === i || size + lengths[j] <= BATCH_BYTES)) size += lengths[j++];
    const wanted: number[] = [];
    const seen = new Set<number>();
    for (let k = i; k < j; k++) {
      if (seen.has(offsets[k])) continue;
      seen.add(offsets[k]);
      wanted.push(k);
    }
    wanted.sort((a, b) => offsets[a] - offsets[b]);
    const at = await readBatch(fs, path, places, wanted, buffer);
    pacer.add(size);
    for (let k = i; k < j; k++) {
      const start = at.get(offsets[k]);
      if (start !== undefined) yield { index: k, bytes: buffer.bytes.subarray(start, start + lengths[k]) };
    }
    i = j;
  }
}

/**
 * Lines in file order, a batch at a time: line `k` of a batch is `bytes[starts[k], ends[k])`
 * (no newline, no `\r` before it). Lines next to each other in the file are next to each other
 * in `bytes` too, the `\n` between them included (`starts[k] === ends[k - 1] + 1`), so a caller
 * that copies lines out as they are may copy a whole run of them at once.
 */
export interface LineBatch {
  bytes: Uint8Array;
  starts: number[];
  ends: number[];
  /** Each line's 1-based line number and its first byte's offset in the file. */
  numbers: number[];
  offsets: number[];
}

/**
 * The lines of `places` (in file order: offsets ascending, none twice) a batch of a few
 * megabytes at a time, read by byte ranges (close ranges merged) into one reused buffer, never
 * split into lines nor parsed: the places say where each line is. A batch is valid until the
 * next one is asked for. A line the file no longer holds whole (it shrank) is left out.
 *
 * @example
 * ```ts
 * // for await (const { bytes, starts, ends } of lineBatches(fs, path, places)) …
 * ```
 */
export async function* lineBatches(fs: FileSystem, path: string, places: LinePlaces): AsyncIterable<LineBatch> {
  const { offsets, lengths, numbers } = places;
  const count = offsets.length;
  const buffer = new BatchBuffer();
  for (let i = 0; i < count;) {
    const batch: LineBatch = { bytes: buffer.bytes, starts: [], ends: [], numbers: [], offsets: [] };
    buffer.used = 0;
    let size = 0;
    while (i < count && (size === 0 || size + lengths[i] <= BATCH_BYTES)) {
      // One range: this line and those that follow it closely.
      const start = offsets[i];
      let j = i + 1;
      let end = start + lengths[i];
      size += lengths[i];
      while (j < count && offsets[j] - end <= MERGE_GAP && size + lengths[j] <= BATCH_BYTES) {
        end = offsets[j] + lengths[j];
        size += lengths[j++];
      }
      const base = buffer.used;
      for await (const chunk of fs.read(path, { start, end, reuseBuffer: true })) buffer.add(chunk.subarray(0, Math.min(chunk.length, end - start - (buffer.used - base))));
      const read = buffer.used - base;
      for (let k = i; k < j; k++) {
        const from = offsets[k] - start;
        if (from + lengths[k] > read) break;
        let to = from + lengths[k];
        if (to > from && buffer.bytes[base + to - 1] === 0x0d) to--;
        batch.starts.push(base + from);
        batch.ends.push(base + to);
        batch.numbers.push(numbers[k]);
        batch.offsets.push(offsets[k]);
      }
      i = j;
    }
    batch.bytes = buffer.bytes;
    yield batch;
  }
}

/**
 * Each place's line parsed, in the order of `places`; a line that does not parse is left out
 * (its problem added to `issues`). `collectEvery` as for `orderedLines`.
 */
export async function* orderedEntries<T>(fs: FileSystem, path: string, places: LinePlaces, issues: ReadIssue[], collectEvery?: number): AsyncIterable<T> {
  const notes = { bom: false, crlf: false };
  for await (const { index, bytes } of orderedLines(fs, path, places, collectEvery)) {
    // The first pass saw the line whole: it is terminated whatever this range's end says.
    const line = { bytes, number: places.numbers[index], offset: places.offsets[index], terminated: true };
    const decoded = decodeLine(line, notes, issues);
    if (decoded.kind === "value") yield decoded.value as T;
    else if (decoded.kind === "error") issues.push(decoded.issue);
  }
}
