/**
 * One session file of an `otel` run, from path to encoded chunks: read once (its usage rows as
 * `stats` reads them come along), what the receiver has left out, the rest as spans, encoded.
 * Plain data in and out, so that it runs the same on the main thread or in a worker thread
 * (export-pool.ts), where only bytes and typed arrays travel back. A long file is instead read
 * twice (session-stream.ts): here for its usage rows and the index of its entries, then for its
 * spans, handed out as they are encoded.
 * @module
 */
import type { SessionHeader } from "../core/format/types.ts";
import type { UsageState } from "../core/digest/usage-state.ts";
import type { Redactor } from "../core/redact/redactor.ts";
import type { FileSystem } from "../io/file-system.ts";
import { type BatchLimits, type Chunk, ChunkEncoder } from "./batches.ts";
import { copiedEntries } from "./copies.ts";
import type { ExportGarbage } from "./export-garbage.ts";
import type { SpanRecord } from "./session-spans.ts";
import { emitSessionSpans } from "./session-spans.ts";
import { readSpanSource } from "./span-entries.ts";
import type { TableIndex } from "./span-index.ts";
import { counted, indexSession, resumeFrom } from "./session-stream.ts";

/** What the receiver acknowledged of a file before (see sent-store.ts). */
export interface SentEntries {
  entries: number;
  lastId: string | null;
}

/** One file to export. */
export interface SessionJob {
  path: string;
  /** Walk the lines (a current-format file whose content is not sent) rather than read them whole. */
  walk: boolean;
  /**
   * A long file of the current format whose content is not sent: read for its usage rows and
   * `index` only, its spans left to `streamSession` (which reads it again).
   */
  stream?: boolean;
  record?: SentEntries;
  /**
   * Read for the usage rows and entries only, no spans: a fork or clone (its header names a
   * parent), which the main thread maps again without what it copied once its usage is attributed.
   */
  usageOnly?: boolean;
  /**
   * Set on the main thread only, for a session that copied entries from another: the usage rows
   * counted elsewhere (`attributeSession`) and the (id, timestamp) identities of its parent's entries.
   */
  copies?: ReadonlyMap<string, number>;
  inParent?: ReadonlySet<string>;
}

/** How a run maps and encodes sessions. */
export interface SessionExportOptions {
  encode: (spans: readonly SpanRecord[]) => Uint8Array;
  limits?: BatchLimits;
  redactor: Redactor;
  content: boolean;
  /** False for an entry time before `--since`. */
  wanted?: (ms: number) => boolean;
  /** Told of each chunk read (the caller tells it when the session is done with). */
  garbage?: ExportGarbage;
}

export interface SessionExport {
  /** Null when the file is not a session. */
  header: SessionHeader | null;
  /** The file's usage rows, for the attribution. */
  usage: UsageState;
  /** Complete entries in the file, and the last one's id. */
  entries: number;
  lastId: string | null;
  /** True when the file holds nothing the receiver lacks (a torn line, a touch): no spans. */
  nothingNew: boolean;
  spans: number;
  chunks: Chunk[];
  /** For a `stream` job: the index of its entries, and the first entry to send. */
  index?: TableIndex;
  from?: number;
}

/**
 * Reads, maps and encodes one session file.
 *
 * @example
 * ```ts
 * const out = await exportSession(fs, { path, walk: true }, { encode, redactor, content: false });
 * out.chunks; // requests of the session's spans, ready to be joined with others'
 * ```
 */
export async function exportSession(fs: FileSystem, job: SessionJob, options: SessionExportOptions): Promise<SessionExport> {
  if (job.stream) return await indexSession(fs, job, options.garbage);
  const chunks = fs.read(job.path, { reuseBuffer: true });
  const file = await readSpanSource(options.garbage ? counted(chunks, options.garbage) : chunks, job.walk);
  const { header, entries, usage } = file;
  const last = entries.at(-1);
  const out: SessionExport = { header, usage, entries: entries.length, lastId: last ? String(last.id) : null, nothingNew: false, spans: 0, chunks: [] };
  if (header === null) return out;
  // The reader leaves out a torn last line (a session being written): it is sent once complete.
  const { record } = job;
  const from = resumeFrom(record, entries.length, (i) => entries[i].id);
  if (from === entries.length && record) {
    out.nothingNew = true;
    return out;
  }
  if (job.usageOnly) return out;
  const copied = job.copies || job.inParent ? copiedEntries(entries, job.copies, job.inParent ?? new Set()) : [];
  // Encoded a chunk at a time as the spans come: a long session never holds all its spans.
  const chunker = new ChunkEncoder(options.encode, options.limits);
  emitSessionSpans({ header, entries, from, copied, wanted: options.wanted, redactor: options.redactor, content: options.content }, chunker);
  out.spans = chunker.spans;
  out.chunks = chunker.chunks;
  return out;
}
