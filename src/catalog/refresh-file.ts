/**
 * Brings one file's records up to date for several sections in one read. Same size and mtime:
 * nothing is read. Else the first bytes and those before the old end are fingerprinted: both
 * unchanged means an append (only the tail is read) or a touch; anything else, a full read.
 * @module
 */
import { type DigestKind, Digester, type DigestResult } from "../core/digest/digester.ts";
import type { DocRow } from "../core/digest/docs-digest.ts";
import { hashBytes } from "../core/digest/hash-bytes.ts";
import { forgetLineEntry } from "../core/digest/line-entry.ts";
import { LineSplitter } from "../core/read/line-splitter.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";
import { readBytes } from "../io/read-bytes.ts";
import type { ReadGarbage } from "./read-garbage.ts";
import { type CatalogRecord, HEAD_BYTES, TAIL_BYTES } from "./store.ts";

/** What had to be done for a record. */
export type RefreshOutcome = "unchanged" | "touched" | "appended" | "read";

/** One section's part in a file refresh: its digest kind and the record it has, if any. */
export interface FileJob {
  kind: DigestKind<unknown, unknown>;
  record?: CatalogRecord;
}

/**
 * The up-to-date record; for a read, the offset it started at and the documents emitted (those
 * not handed to `onDocs` already, which start at `docsFrom`).
 */
export interface FileJobResult {
  record: CatalogRecord;
  outcome: RefreshOutcome;
  from: number;
  docs?: DocRow[];
  docsFrom?: number;
}

/**
 * Where documents go while a long file is read: the rows so far of job `job`, replacing what
 * is stored from offset `from` on. Their record comes after all of them, so a read cut short
 * leaves documents that the next read replaces.
 */
export type DocsSink = (job: number, from: number, rows: DocRow[]) => Promise<void>;

/**
 * Characters of document text held per job before they go to the sink. Texts held that long
 * outlive the engine's young collections and pile up as old garbage, which only a full collection
 * (read-garbage.ts) frees: the 1.2 GB session alone, collecting from 140 MB, needed 35 of them
 * holding 1,000,000 characters, 25 holding 131,072 or 32,768 (in less CPU).
 */
export const DOCS_HELD = 32_768;

type Plan = { outcome: "unchanged" | "touched" | "read" } | { outcome: "appended"; from: CatalogRecord };

interface Piece {
  at: number;
  bytes: Uint8Array;
}

/** A copy of `bytes[a, b)` (not `slice`: on a Node Buffer it does not copy). */
function copyOf(bytes: Uint8Array, a: number, b: number): Uint8Array {
  return new Uint8Array(bytes.subarray(a, b));
}

/** Bytes `[a, b)` when the retained pieces cover them all. */
function sliceOf(pieces: Piece[], a: number, b: number): Uint8Array | undefined {
  const out = new Uint8Array(b - a);
  let covered = 0;
  for (const { at, bytes } of pieces) {
    const from = Math.max(a, at);
    const to = Math.min(b, at + bytes.length);
    if (to <= from) continue;
    out.set(bytes.subarray(from - at, to - at), from - a);
    covered += to - from;
  }
  return covered === b - a ? out : undefined;
}

/**
 * Refreshes `jobs` for the file at `path`, whose current `stat` the caller has. `counter.bytes`
 * grows by every byte read (tests use it to prove that appends read only the tail). `garbage`
 * counts the bytes of a refresh's reads and collects as they go (read-garbage.ts).
 */
export async function refreshFile(
  fs: FileSystem,
  path: string,
  stat: FileStat,
  jobs: readonly FileJob[],
  counter: { bytes: number } = { bytes: 0 },
  onDocs?: DocsSink,
  docsHeld = DOCS_HELD,
  garbage?: ReadGarbage,
): Promise<FileJobResult[]> {
  const read = async (a: number, b: number) => {
    const bytes = await readBytes(fs, path, a, b);
    counter.bytes += bytes.length;
    return bytes;
  };
  const hashes = new Map<string, Promise<string>>();
  const hashOf = (a: number, b: number): Promise<string> => {
    const key = `${a}:${b}`;
    let found = hashes.get(key);
    if (!found) hashes.set(key, found = read(a, b).then(hashBytes));
    return found;
  };
  const plan = async (record: CatalogRecord | undefined): Promise<Plan> => {
    if (!record) return { outcome: "read" };
    if (record.size === stat.size && record.mtimeMs === stat.mtimeMs) return { outcome: "unchanged" };
    if (stat.size < record.end || record.end < HEAD_BYTES) return { outcome: "read" };
    const [head, tail] = await Promise.all([hashOf(0, HEAD_BYTES), hashOf(record.end - TAIL_BYTES, record.end)]);
    if (head !== record.headHash || tail !== record.tailHash) return { outcome: "read" };
    return stat.size === record.end ? { outcome: "touched" } : { outcome: "appended", from: record };
  };
  const plans = await Promise.all(jobs.map((job) => plan(job.record)));

  let docs = jobs.map((): DocRow[] => []);
  // Where the held documents of each job start, and how much text they hold.
  const docsFrom = plans.map((p) => (p.outcome === "appended" ? p.from.end : 0));
  const docsText = jobs.map(() => 0);
  const digesters = new Map<number, Digester<unknown, unknown>>();
  plans.forEach((p, i) => {
    if (p.outcome !== "read" && p.outcome !== "appended") return;
    const from = p.outcome === "appended" ? p.from : undefined;
    digesters.set(i, new Digester(jobs[i].kind, from, (row) => {
      docs[i].push(row as DocRow);
      docsText[i] += (row as DocRow).text.length;
    }));
  });
  /** Hands held documents over between chunks: every row of a line is emitted within one chunk. */
  const handOver = async () => {
    for (const [i, rows] of docs.entries()) {
      if (!onDocs || docsText[i] < docsHeld) continue;
      docs = docs.map((held, k) => (k === i ? [] : held));
      docsText[i] = 0;
      await onDocs(i, docsFrom[i], rows);
      docsFrom[i] = rows[rows.length - 1].offset + 1;
    }
  };
  const results: DigestResult<unknown>[] = [];
  const pieces: Piece[] = [];
  const headPieces: Piece[] = [];
  if (digesters.size > 0) {
    const active = [...digesters.values()];
    const start = Math.min(...active.map((d) => d.base));
    // One splitter for the digests that start at the same offset (all of them, but for a
    // section read again in full beside appends): each line is cut out once, and its entry
    // parsed once for all of them (line-entry.ts).
    const splitters = [...new Set(active.map((d) => d.base))].map((base) => {
      const group = active.filter((d) => d.base === base);
      return { base, group, splitter: new LineSplitter((line) => group.forEach((d) => d.line(line))) };
    });
    let at = start;
    // The read buffer is reused for the next chunk: what the fingerprints need is copied out.
    for await (const chunk of fs.read(path, { start, end: stat.size, reuseBuffer: true })) {
      counter.bytes += chunk.length;
      garbage?.read(chunk.length);
      if (start === 0 && at < HEAD_BYTES) headPieces.push({ at, bytes: copyOf(chunk, 0, HEAD_BYTES - at) });
      for (const { base, group, splitter } of splitters) {
        if (!group.some((d) => d.wanted) || at + chunk.length <= base) continue;
        splitter.push(base > at ? chunk.subarray(base - at) : chunk);
      }
      const keep = Math.min(chunk.length, TAIL_BYTES);
      pieces.push({ at: at + chunk.length - keep, bytes: copyOf(chunk, chunk.length - keep, chunk.length) });
      if (pieces.length > 2) pieces.shift();
      at += chunk.length;
      if (!active.some((d) => d.wanted)) break;
      await handOver();
    }
    for (const { splitter } of splitters) splitter.end();
    for (const [i, d] of digesters) results[i] = d.finish();
    forgetLineEntry();
    // The records of a long read are saved next, from a heap rid of what its lines left.
    garbage?.readDone(at - start);
  }

  return Promise.all(jobs.map(async (job, i): Promise<FileJobResult> => {
    const p = plans[i];
    if (p.outcome === "unchanged") return { record: job.record!, outcome: "unchanged", from: job.record!.end };
    if (p.outcome === "touched") return { record: { ...job.record!, size: stat.size, mtimeMs: stat.mtimeMs }, outcome: "touched", from: job.record!.end };
    const result = results[i];
    const { end } = result;
    const headEnd = Math.min(HEAD_BYTES, end);
    const headHash = p.outcome === "appended" ? p.from.headHash : hashBytes(sliceOf(headPieces, 0, headEnd) ?? await read(0, headEnd));
    const tailStart = Math.max(0, end - TAIL_BYTES);
    const tailHash = hashBytes(sliceOf(pieces, tailStart, end) ?? await read(tailStart, end));
    const id = (result.final ?? result.state).header?.id;
    const record: CatalogRecord = {
      path,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      end,
      lines: result.lines,
      headHash,
      tailHash,
      headerId: typeof id === "string" ? id : null,
      state: result.state,
    };
    if (result.final) record.final = result.final;
    return { record, outcome: p.outcome, from: p.outcome === "appended" ? p.from.end : 0, docs: docs[i].length ? docs[i] : undefined, docsFrom: docsFrom[i] };
  }));
}
