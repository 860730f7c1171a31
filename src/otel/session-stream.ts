/**
 * A long session file of an `otel` run in bounded memory, read twice. First for its usage rows
 * (the fork-proof attribution needs them before any span is decided) and the index of its
 * entries (span-index.ts), without keeping the entries; then, once attributed, for its spans:
 * its entries mapped one by one, each chunk of spans handed out as soon as it is encoded, so
 * that a request leaves before more of the file is read. The second read stops at the entries
 * the first counted (what was appended meanwhile waits for the next run).
 * @module
 */
import { collectGarbage } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import type { FileSystem } from "../io/file-system.ts";
import { type Chunk, ChunkEncoder } from "./batches.ts";
import { CopyTest } from "./copies.ts";
import type { ExportGarbage } from "./export-garbage.ts";
import type { SentEntries, SessionExport, SessionExportOptions, SessionJob } from "./session-export.ts";
import { SpanMapper } from "./session-spans.ts";
import { readSpanSource, WalkingReader } from "./span-entries.ts";
import { idAt, SpanIndexer } from "./span-index.ts";

/**
 * Bytes of a long session's second read between two full collections (without giving pages
 * back): its index and the run's own data stay, the read's garbage goes before it piles up
 * (`otel --dry-run --all` on the 25,000-session scale corpus, with the worker: 185 and 187 MB
 * against 202 and 204 without; every 32 MB, 188 MB).
 */
export const STREAM_COLLECT_EVERY = 64 * 1024 * 1024;

/** How `streamSession` paces its collections (tests count them instead). */
export interface StreamPace {
  every: number;
  collect: (young?: boolean, shrink?: boolean) => void;
}

/**
 * The first entry to send of a file of `count` entries (`idAt` gives an entry's id): past those
 * the receiver acknowledged, when the file still starts with them; else the first.
 */
export function resumeFrom(record: SentEntries | undefined, count: number, idAt: (i: number) => unknown): number {
  const resumes = record !== undefined && record.entries <= count && (record.entries === 0 ? record.lastId === null : idAt(record.entries - 1) === record.lastId);
  return resumes ? record.entries : 0;
}

/** `chunks`, each told to `garbage` as it goes by. */
export async function* counted(chunks: AsyncIterable<Uint8Array>, garbage: ExportGarbage): AsyncIterable<Uint8Array> {
  for await (const chunk of chunks) {
    garbage.read(chunk.length);
    yield chunk;
  }
}

/**
 * The first read of a `stream` job (a file of the current format, content not sent): what
 * `exportSession` tells of a file, without spans or chunks, with the index of its entries and
 * the first one to send (none when there is nothing new).
 */
export async function indexSession(fs: FileSystem, job: SessionJob, garbage?: ExportGarbage): Promise<SessionExport> {
  const indexer = new SpanIndexer();
  const chunks = fs.read(job.path, { reuseBuffer: true });
  const { header, usage } = await readSpanSource(garbage ? counted(chunks, garbage) : chunks, true, (entry) => indexer.add(entry));
  const out: SessionExport = { header, usage, entries: 0, lastId: null, nothingNew: false, spans: 0, chunks: [] };
  if (header === null) return out;
  const index = indexer.done(header);
  out.entries = index.entries;
  out.lastId = index.entries > 0 ? String(idAt(index, index.entries - 1)) : null;
  const from = resumeFrom(job.record, index.entries, (i) => idAt(index, i));
  if (from === index.entries && job.record) out.nothingNew = true;
  else [out.index, out.from] = [index, from];
  return out;
}

/**
 * The spans of a file `indexSession` read (`first`), read again: the entries `job.copies` and
 * `job.inParent` say it copied are left out (as `copiedEntries` decides), the chunks given to
 * `take` as they are encoded, each batch awaited before more of the file is read. Resolves to
 * false when `take` does (the run stops), and to true once every chunk was taken. A full
 * collection, pages kept, every `pace.every` bytes read (`STREAM_COLLECT_EVERY`).
 *
 * @example
 * ```ts
 * const first = await exportSession(fs, { path, walk: true, stream: true }, options);
 * await streamSession(fs, job, first, options, async (chunks) => send(chunks));
 * ```
 */
export async function streamSession(fs: FileSystem, job: SessionJob, first: SessionExport, options: SessionExportOptions, take: (chunks: Chunk[]) => Promise<boolean>, pace: StreamPace = { every: STREAM_COLLECT_EVERY, collect: collectGarbage }): Promise<boolean> {
  const index = first.index!;
  const from = first.from ?? 0;
  const count = index.entries;
  const test = job.copies || job.inParent ? new CopyTest(job.copies, job.inParent ?? new Set()) : undefined;
  const copied = new Uint8Array(test ? count : 0);
  const ready: Chunk[] = [];
  const chunker = new ChunkEncoder(options.encode, options.limits, (chunk) => ready.push(chunk));
  const input = { header: first.header!, from, copied, wanted: options.wanted, redactor: options.redactor, content: options.content };
  const mapper = new SpanMapper(input, index, chunker);
  let i = 0;
  const reader = new WalkingReader((entry) => {
    if (i >= count) return;
    if (test?.copied(entry)) copied[i] = 1;
    if (i >= from) mapper.entry(i, entry);
    i++;
  });
  const collections = new GarbagePacer({ everyAmount: pace.every, collect: () => pace.collect(false, false) });
  const chunks = fs.read(job.path, { reuseBuffer: true });
  for await (const chunk of options.garbage ? counted(chunks, options.garbage) : chunks) {
    reader.push(chunk);
    collections.add(chunk.length);
    if (ready.length > 0 && !(await take(ready.splice(0)))) return false;
    if (i >= count) break;
  }
  if (i < count) reader.end();
  mapper.end();
  return ready.length === 0 || (await take(ready.splice(0)));
}
