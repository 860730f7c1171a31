/**
 * One refresh's reading and saving: what its reads share (the counts, the changes not saved yet),
 * reading a changed file's records, and saving them in batches so that a refresh cut short
 * (Ctrl+C, kill -9) keeps what it read. Also the pacing of a refresh that yields to the event loop.
 * @module
 */
import type { DigestKind } from "../core/digest/digester.ts";
import type { DocRow } from "../core/digest/docs-digest.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import type { RefreshCounts, RefreshOptions } from "./refresh-options.ts";
import { LONG_READ, ReadGarbage } from "./read-garbage.ts";
import { DOCS_HELD, refreshFile, type RefreshOutcome } from "./refresh-file.ts";
import type { CatalogRecord, DocBatch, SectionChanges } from "./store.ts";

// deno-lint-ignore no-explicit-any
type AnyKind = DigestKind<any, any>;

const RANK: Record<RefreshOutcome, number> = { unchanged: 0, touched: 1, appended: 2, read: 3 };
/** Search documents are saved in batches of about this many rows, to bound memory. */
const DOC_BATCH = 20_000;
/**
 * Bytes of session files read into one store batch at most, beside its count of files: records
 * of every section and documents hold what their files said until saved. A cold `index` of the
 * 2,400 bench sessions (87 KB each) peaked at 190 MB in batches of 64 files and 262–267 MB
 * in batches of 128; a cold `list` of 25,000 (14 KB each) wants the 128.
 */
const BATCH_BYTES = 4 * 1024 * 1024;
/**
 * Characters of search-document text in one store batch at most, beside its bytes and files:
 * the documents are held until saved, and SQLite's full-text index holds their words in memory
 * until the save commits. A cold `index` of the 2,400 bench sessions peaked at 178 MB in
 * batches bounded by 4 MB of files alone, 138 MB with this bound (125 MB at 256 K, for more
 * saves). Held documents also outlive young collections (see `DOCS_HELD`): at 128 K, with
 * `DOCS_HELD` at 32 K, 119 MB (131 MB at 512 K), in less CPU. A listing has no documents and
 * keeps its batches.
 */
export const BATCH_TEXT = 128 * 1024;
/**
 * A refresh also saves what it has read once this long has passed since its last save (and at
 * least ten times that save's duration): a killed `index` keeps most of its work (issue 22).
 */
const SAVE_EVERY_MS = 1000;

/** Stored records loaded at once by a refresh that pauses (message texts: about 1 MB, 20 ms). */
export const PACED_LOAD = 100;
/** Stats in flight at once (cheap calls; more only queue up in the runtime's thread pool). */
export const STAT_CONCURRENCY = 64;

/** What a run needs of its catalog. */
export interface RunHost {
  fs: FileSystem;
  /** Changes per store batch (`CatalogStore.recordBatch`); Infinity without a limit. */
  recordBatch: number;
  clock: () => number;
  /** Saves one section's changes (a failure is the host's to note). */
  save: (kind: AnyKind, changes: SectionChanges) => Promise<void>;
  /** Tells once per `key`. */
  warn: (key: string, message: string) => void;
  /** Paces the collections of the run's reads; a `ReadGarbage` of the process's memory without it (tests give their own). */
  garbage?: ReadGarbage;
}

/** A refresh's reads, removals and final save. */
export interface RefreshRun {
  counts: RefreshCounts;
  /**
   * Brings one changed file's records (`old`, by kind) up to date, queues them for saving and
   * hands them to `onRecords` (undefined: the file could not be read).
   */
  read: (path: string, stat: FileStat, old: readonly (CatalogRecord | undefined)[]) => Promise<CatalogRecord[] | undefined>;
  /** Queues the removal of `path`'s record from the `i`th kind's section. */
  remove: (i: number, path: string) => void;
  /** Saves what is left and notes unreadable files. */
  end: () => Promise<void>;
}

/**
 * Starts a refresh of `kinds`. Changes are saved in batches (`recordBatch`, `DOC_BATCH`,
 * `BATCH_BYTES`, `BATCH_TEXT`) and at least every `SAVE_EVERY_MS`; `end` saves the rest. Its
 * reads share one `ReadGarbage` (read-garbage.ts).
 */
export function startRun(host: RunHost, kinds: readonly AnyKind[], options: RefreshOptions): RefreshRun {
  const counts: RefreshCounts = { files: 0, unchanged: 0, touched: 0, appended: 0, read: 0, removed: 0, bytesRead: 0, unreadable: 0 };
  const empty = () => kinds.map((): SectionChanges => ({ put: [], remove: [], docs: [] }));
  let pending = empty();
  let pendingDocs = 0;
  let pendingText = 0;
  const clock = host.clock;
  let savedAt = clock();
  let saveTook = 0;
  // A long read's records are in the batch, then saved: collected once they are let go.
  let longPending = false;
  let longSaved = false;
  const flush = async () => {
    // Swap first: other files keep adding changes while this batch is written.
    const batch = pending;
    pending = empty();
    pendingDocs = 0;
    pendingText = 0;
    bytesSaved = counter.bytes;
    const started = clock();
    const long = longPending;
    longPending = false;
    for (const [i, kind] of kinds.entries()) await host.save(kind, batch[i]);
    savedAt = clock();
    saveTook = savedAt - started;
    longSaved ||= long;
  };
  /** After a long read's records were saved, at the next step (the batch and the caller's hold on them gone). */
  const collectSaved = () => {
    if (!longSaved) return;
    longSaved = false;
    garbage.savedLong();
  };
  const due = () => clock() - savedAt >= Math.max(SAVE_EVERY_MS, 10 * saveTook);
  const counter = { bytes: 0 };
  const garbage = host.garbage ?? new ReadGarbage();
  let bytesSaved = 0;
  const recordBatch = host.recordBatch;
  const read = async (path: string, stat: FileStat, old: readonly (CatalogRecord | undefined)[]): Promise<CatalogRecord[] | undefined> => {
    collectSaved();
    const jobs = kinds.map((kind, i) => ({ kind, record: old[i] }));
    const readFrom = counter.bytes;
    // A long file's documents are stored while it is read, not held until its end.
    const onDocs = async (i: number, from: number, rows: DocRow[]) => {
      pending[i].docs!.push({ path, from, rows });
      await flush();
    };
    const results = await refreshFile(host.fs, path, stat, jobs, counter, onDocs, DOCS_HELD, garbage).catch((error: unknown) => {
      counts.unreadable++;
      counts.firstUnreadable ??= error instanceof Error ? error.message : String(error);
      return undefined;
    });
    if (!results) return undefined;
    if (counter.bytes - readFrom >= LONG_READ) longPending = true;
    counts.files++;
    let outcome: RefreshOutcome = "unchanged";
    for (const [i, result] of results.entries()) {
      if (RANK[result.outcome] > RANK[outcome]) outcome = result.outcome;
      if (result.outcome === "unchanged") continue;
      pending[i].put.push(result.record);
      if (result.outcome === "read" || result.outcome === "appended") {
        const batch: DocBatch = { path, from: result.docsFrom ?? result.from, rows: result.docs ?? [] };
        pending[i].docs!.push(batch);
        pendingDocs += batch.rows.length;
        for (const row of batch.rows) pendingText += row.text.length;
      }
    }
    counts[outcome]++;
    const records = results.map((result) => result.record);
    options.onRecords?.(path, records);
    const full = pendingDocs > DOC_BATCH || pendingText >= BATCH_TEXT || counter.bytes - bytesSaved >= BATCH_BYTES || pending.some((changes) => changes.put.length >= recordBatch);
    if (full || due()) await flush();
    return records;
  };
  const remove = (i: number, path: string) => {
    pending[i].remove.push(path);
    if (i === 0) counts.removed++;
  };
  const end = async () => {
    await flush();
    collectSaved();
    counts.bytesRead = counter.bytes;
    if (counts.unreadable > 0) {
      const files = counts.unreadable === 1 ? "1 session file" : `${counts.unreadable} session files`;
      host.warn("unreadable", `${files} could not be read and ${counts.unreadable === 1 ? "is" : "are"} left out (${counts.firstUnreadable})`);
    }
  };
  return { counts, read, remove, end };
}

/**
 * What a refresh with `pauseEveryMs` calls between steps (none without): a turn of the event loop
 * once that many milliseconds have passed since the last one, and an end once `signal` is aborted.
 */
export function pacer(options: Pick<RefreshOptions, "pauseEveryMs" | "signal">): (() => Promise<void>) | undefined {
  const { pauseEveryMs, signal } = options;
  if (pauseEveryMs === undefined) return undefined;
  let ranSince = performance.now();
  return async () => {
    if (performance.now() - ranSince >= pauseEveryMs) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      ranSince = performance.now();
    }
    signal?.throwIfAborted();
  };
}
