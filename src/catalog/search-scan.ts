/**
 * Search without an index: stream every file once, look for the rarest character of the longest
 * term piece in the raw bytes (no decoding; decoding is the slow part on Node 20), and decode,
 * test and parse only the lines found. Regex queries cannot be narrowed: every line is parsed.
 * @module
 */
import type { HeaderFacts } from "../core/digest/digester.ts";
import { listingHeaderLine } from "../core/info/session-info.ts";
import { isObject } from "../core/read/decode-line.ts";
import { scanEntryKeys } from "../core/read/scan-keys.ts";
import { type ByteNeedle, compileNeedle, findNeedle } from "../core/search/byte-needle.ts";
import type { DocFacts } from "../core/search/doc-filter.ts";
import { entryDocs } from "../core/search/entry-docs.ts";
import { linePrefilter, prefilterPieces } from "../core/search/line-prefilter.ts";
import type { SearchQuery } from "../core/search/query.ts";
import { collectGarbage } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import type { FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { HitCollector, hitOf, type SearchResult } from "./search-hit.ts";

/** How many hits to keep, which sessions and documents count, and progress. */
export interface ScanOptions {
  limit: number;
  filter: (doc: DocFacts) => boolean;
  /** Which sessions count, by their header (e.g. only those of one directory); all when absent. */
  accept?: (header: HeaderFacts) => boolean;
  onProgress?: (done: number, total: number) => void;
  /** Hears of each file skipped for a `{"type":"session"}` header that cannot be used, and why. */
  onBadHeader?: (path: string, problem: string) => void;
  /**
   * Asks for a collection: young after every `SCAN_COLLECT_EVERY` files, full after every
   * `SCAN_COLLECT_DECODED` characters decoded (default: `collectGarbage(young, false)`).
   */
  collect?: (young: boolean) => void;
}

/**
 * Files scanned between two young collections. Each file read leaves a few kilobytes of
 * garbage (its header parsed, the read's objects), and Bun let the heap grow with the files
 * read: over the 25,000-session corpus the scan's heap grew from 9 to 33 MB around 11 MB of
 * live objects, and with a young collection every 500 files it stays near 17 MB (measured with
 * the compiled binary; the CPU time did not change measurably).
 */
export const SCAN_COLLECT_EVERY = 500;
/**
 * Characters of lines decoded between two full collections (without giving pages back). A
 * common word decodes, parses and snippets thousands of lines of a 1.2 GB session, whose
 * strings young collections did not keep in check: that scan peaked at 127 MB, 98 MB on a
 * 200 MB session. A rare word decodes a few lines and never gets here.
 */
export const SCAN_COLLECT_DECODED = 32 * 1024 * 1024;

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function countNewlines(b: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let k = b.indexOf(NEWLINE, from); k >= 0 && k < to; k = b.indexOf(NEWLINE, k + 1)) count++;
  return count;
}

/** Cut lines' buffers, kept for the next file's (one per file scanned at once). */
const spareCuts: CutLine[] = [];
/** A buffer that grew past this for a giant line is left to the garbage collector. */
const KEEP_CUT_UP_TO = 4 * 1024 * 1024;

/**
 * The line cut by the end of a chunk, put together in one buffer that grows as needed and is
 * reused from chunk to chunk and file to file: a new array per cut made garbage of every line
 * that crossed a chunk's end (78 MB over the 25,000-session corpus, in arrays the collector
 * reclaims late), and a line over many chunks was copied again at each.
 */
class CutLine {
  #bytes = new Uint8Array(64 * 1024);
  length = 0;

  static take(): CutLine {
    return spareCuts.pop() ?? new CutLine();
  }

  append(part: Uint8Array): void {
    const needed = this.length + part.length;
    if (needed > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(needed, 2 * this.#bytes.length));
      grown.set(this.#bytes.subarray(0, this.length));
      this.#bytes = grown;
    }
    this.#bytes.set(part, this.length);
    this.length = needed;
  }

  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }

  release(): void {
    this.length = 0;
    if (this.#bytes.length <= KEEP_CUT_UP_TO && spareCuts.length < 4) spareCuts.push(this);
  }
}

/** What every file scan of one search shares: the query, its narrowing, and where hits go. */
interface Search {
  query: SearchQuery;
  options: ScanOptions;
  hits: HitCollector;
  filters: RegExp[];
  needles: ByteNeedle[] | undefined;
  /** When the scan asks for a collection: young every `SCAN_COLLECT_EVERY` files (`item`), full every `SCAN_COLLECT_DECODED` characters decoded (`add`). */
  pace: GarbagePacer;
}

/** One file's scan; `header` is "skip" for a file that is not a session, or not one that counts. */
interface Scan extends Search {
  path: string;
  header: "unknown" | "found" | "skip";
}

/** Until the header: the listing's own rule decides whether the file is a session. */
function onHeaderLine(scan: Scan, bytes: Uint8Array, number: number): void {
  const header = listingHeaderLine({ bytes, number, offset: 0, terminated: true }, (problem) => scan.options.onBadHeader?.(scan.path, problem));
  if (header === undefined) return;
  scan.header = header !== null && (scan.options.accept?.(header) ?? true) ? "found" : "skip";
}

function onLine(scan: Scan, text: string, number: number): void {
  scan.pace.add(text.length);
  if (!scan.filters.every((filter) => filter.test(text))) return;
  const entry = parse(text);
  if (!entry) return;
  const where = {
    path: scan.path,
    entryId: typeof entry.id === "string" ? entry.id : null,
    timestamp: typeof entry.timestamp === "string" ? entry.timestamp : null,
    line: number,
  };
  if (!scan.hits.wants(where.timestamp)) return;
  for (const doc of entryDocs(entry)) {
    if (!scan.options.filter({ role: doc.role, part: doc.part, timestamp: where.timestamp })) continue;
    const hit = hitOf(scan.query, doc, where);
    if (hit) scan.hits.add(hit);
  }
}

/** The next place in `b` at or after `from` where a needle matches, or -1. */
function nextCandidate(needles: ByteNeedle[], b: Uint8Array, from: number): number {
  let best = -1;
  for (const needle of needles) {
    const at = findNeedle(needle, b, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

/** Feeds the complete lines of `body` (no trailing `\n`), the first being line `number`; returns the next line's number. */
function scanBody(scan: Scan, body: Uint8Array, number: number): number {
  let at = 0;
  const lineEnd = (from: number) => {
    const end = body.indexOf(NEWLINE, from);
    return end < 0 ? body.length : end;
  };
  // Until the header is found, and with nothing to look for, every line is decoded.
  while (at <= body.length && (scan.header === "unknown" || (scan.header === "found" && !scan.needles))) {
    const end = lineEnd(at);
    if (scan.header === "unknown") onHeaderLine(scan, body.subarray(at, end), number++);
    else onLine(scan, decoder.decode(body.subarray(at, end)), number++);
    at = end + 1;
  }
  if (at > body.length || scan.header !== "found") return number;
  for (let pos = nextCandidate(scan.needles!, body, at); pos >= 0; pos = nextCandidate(scan.needles!, body, at)) {
    const start = body.lastIndexOf(NEWLINE, pos) + 1;
    number += countNewlines(body, at, start);
    const end = lineEnd(pos);
    // Once enough newer hits are kept, an older line is skipped before it is even decoded.
    const line = body.subarray(start, end);
    const stamp = scan.hits.narrowed ? scanEntryKeys(line)?.timestamp : undefined;
    if (stamp === undefined || scan.hits.wants(stamp)) onLine(scan, decoder.decode(line), number);
    number++;
    at = end + 1;
    if (at > body.length) return number;
  }
  return number + countNewlines(body, at, body.length) + 1;
}

async function scanFile(fs: FileSystem, path: string, search: Search): Promise<void> {
  const scan: Scan = { ...search, path, header: "unknown" };
  // The start of a line cut by the end of a chunk (copied: chunks share one buffer), once there is one.
  let cut: CutLine | undefined;
  let number = 1;
  try {
    for await (const chunk of fs.read(path, { reuseBuffer: true })) {
      // Chunks are scanned where they are, since the runtime's own arrays (Node's Buffer) search
      // faster than any copy: only the line cut in two is put together.
      let from = 0;
      if (cut && cut.length > 0) {
        const first = chunk.indexOf(NEWLINE);
        if (first < 0) {
          cut.append(chunk);
          continue;
        }
        cut.append(chunk.subarray(0, first));
        number = scanBody(scan, cut.bytes, number);
        cut.length = 0;
        from = first + 1;
      }
      const last = chunk.lastIndexOf(NEWLINE);
      if (last >= from) number = scanBody(scan, chunk.subarray(from, last), number);
      if (scan.header === "skip") return;
      const tail = Math.max(from, last + 1);
      if (tail < chunk.length) (cut ??= CutLine.take()).append(chunk.subarray(tail));
    }
    if (cut && cut.length > 0) scanBody(scan, cut.bytes, number);
  } finally {
    cut?.release();
  }
}

/**
 * Searches `files` by reading them, newest hits first.
 *
 * @example
 * ```ts
 * const { hits } = await scanSearch(fs, files, parseSearchQuery("parser"), { limit: 20, filter: docFilter({}) });
 * ```
 */
export async function scanSearch(fs: FileSystem, files: readonly string[], query: SearchQuery, options: ScanOptions): Promise<SearchResult> {
  const pieces = prefilterPieces(query);
  const search: Search = {
    query,
    options,
    hits: new HitCollector(options.limit),
    filters: linePrefilter(query) ?? [],
    needles: pieces ? pieces[0].map(compileNeedle) : undefined,
    pace: new GarbagePacer({
      everyItems: SCAN_COLLECT_EVERY,
      itemsYoung: true,
      everyAmount: SCAN_COLLECT_DECODED,
      collect: options.collect ?? ((young) => collectGarbage(young, false)),
    }),
  };
  let done = 0;
  await mapConcurrent(files, 4, async (path) => {
    await scanFile(fs, path, search).catch(() => {});
    search.pace.item();
    options.onProgress?.(++done, files.length);
  });
  return search.hits.result();
}
