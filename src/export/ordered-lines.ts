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

/** Bytes of wanted lines per batch (a longer line makes a batch of its own). */
const BATCH_BYTES = 8 * 1024 * 1024;

/** Wanted lines closer than this are read in one range rather than two. */
const MERGE_GAP = 64 * 1024;

/** Reads `items` (sorted by offset, no duplicates) and gives each wanted line's bytes, copied. */
async function readBatch(fs: FileSystem, path: string, items: SkeletonEntry[]): Promise<Map<SkeletonEntry, Uint8Array>> {
  const out = new Map<SkeletonEntry, Uint8Array>();
  for (let i = 0; i < items.length;) {
    let j = i + 1;
    let end = items[i].offset + items[i].length;
    while (j < items.length && items[j].offset - end <= MERGE_GAP) {
      end = Math.max(end, items[j].offset + items[j].length);
      j++;
    }
    const start = items[i].offset;
    let next = i;
    const splitter = new LineSplitter((line) => {
      if (next >= j || start + line.offset !== items[next].offset) return;
      // Copied: the reused read buffer (or the splitter's carry) is gone by the next chunk.
      out.set(items[next++], line.bytes.slice(0, items[next - 1].length));
    });
    for await (const chunk of fs.read(path, { start, end, reuseBuffer: true })) splitter.push(chunk);
    splitter.end();
    i = j;
  }
  return out;
}

/**
 * The raw bytes (no newline) of each item's line, in the order of `items` (repeats allowed).
 *
 * @example
 * ```ts
 * // for await (const { item, bytes } of orderedLines(fs, path, branchItems)) …
 * ```
 */
export async function* orderedLines(fs: FileSystem, path: string, items: readonly SkeletonEntry[]): AsyncIterable<{ item: SkeletonEntry; bytes: Uint8Array }> {
  for (let i = 0; i < items.length;) {
    let j = i;
    let size = 0;
    while (j < items.length && (j === i || size + items[j].length <= BATCH_BYTES)) size += items[j++].length;
    const batch = [...new Set(items.slice(i, j))].sort((a, b) => a.offset - b.offset);
    const lines = await readBatch(fs, path, batch);
    for (let k = i; k < j; k++) {
      const bytes = lines.get(items[k]);
      if (bytes) yield { item: items[k], bytes };
    }
    i = j;
  }
}

/**
 * Each item's line parsed, in the order of `items`; a line that does not parse is left out
 * (its problem added to `issues`).
 */
export async function* orderedEntries<T>(fs: FileSystem, path: string, items: readonly SkeletonEntry[], issues: ReadIssue[]): AsyncIterable<{ item: SkeletonEntry; value: T }> {
  const notes = { bom: false, crlf: false };
  for await (const { item, bytes } of orderedLines(fs, path, items)) {
    // The first pass saw the line whole: it is terminated whatever this range's end says.
    const decoded = decodeLine({ bytes, number: item.line, offset: item.offset, terminated: true }, notes, issues);
    if (decoded.kind === "value") yield { item, value: decoded.value as T };
    else if (decoded.kind === "error") issues.push(decoded.issue);
  }
}
