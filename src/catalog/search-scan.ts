/**
 * Search without an index: stream every file once, look for the rarest character of the longest
 * term piece in the raw bytes (no decoding; decoding is the slow part on Node 20), and decode,
 * test and parse only the lines found. Regex queries cannot be narrowed: every line is parsed.
 * @module
 */
import { isObject } from "../core/read/decode-line.ts";
import { scanEntryKeys } from "../core/read/scan-keys.ts";
import { type ByteNeedle, compileNeedle, findNeedle } from "../core/search/byte-needle.ts";
import type { DocFacts } from "../core/search/doc-filter.ts";
import { entryDocs } from "../core/search/entry-docs.ts";
import { linePrefilter, prefilterPieces } from "../core/search/line-prefilter.ts";
import type { SearchQuery } from "../core/search/query.ts";
import type { FileSystem } from "../io/file-system.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { HitCollector, hitOf, type SearchResult } from "./search-hit.ts";

/** How many hits to keep, which documents count, and progress. */
export interface ScanOptions {
  limit: number;
  filter: (doc: DocFacts) => boolean;
  onProgress?: (done: number, total: number) => void;
}

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

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** What one file scan needs: the query, its narrowing, and where hits go. */
interface Scan {
  path: string;
  query: SearchQuery;
  options: ScanOptions;
  hits: HitCollector;
  filters: RegExp[];
  needles: ByteNeedle[] | undefined;
  header: "unknown" | "found" | "not-a-session";
}

function onLine(scan: Scan, text: string, number: number): void {
  if (scan.header !== "found") {
    if (text.trim() === "") return;
    const value = parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    if (value !== undefined) scan.header = value.type === "session" ? "found" : "not-a-session";
    return;
  }
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
    onLine(scan, decoder.decode(body.subarray(at, end)), number++);
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

async function scanFile(fs: FileSystem, path: string, query: SearchQuery, options: ScanOptions, hits: HitCollector): Promise<void> {
  const pieces = prefilterPieces(query);
  const scan: Scan = {
    path,
    query,
    options,
    hits,
    filters: linePrefilter(query) ?? [],
    needles: pieces ? pieces[0].map(compileNeedle) : undefined,
    header: "unknown",
  };
  // A known end keeps each read buffer the size of the file rather than of a whole chunk.
  const size = (await fs.stat(path))?.size ?? 0;
  let carry: Uint8Array | undefined;
  let number = 1;
  for await (const chunk of fs.read(path, { end: size })) {
    const bytes = carry ? concat(carry, chunk) : chunk;
    const last = bytes.lastIndexOf(NEWLINE);
    if (last < 0) {
      carry = bytes;
      continue;
    }
    number = scanBody(scan, bytes.subarray(0, last), number);
    carry = bytes.subarray(last + 1);
    if (scan.header === "not-a-session") return;
  }
  if (carry && carry.length > 0) scanBody(scan, carry, number);
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
  const hits = new HitCollector(options.limit);
  let done = 0;
  await mapConcurrent(files, 4, async (path) => {
    await scanFile(fs, path, query, options, hits).catch(() => {});
    options.onProgress?.(++done, files.length);
  });
  return hits.result();
}
