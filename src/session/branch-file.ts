/**
 * A branched session (`fork`, `clone`) written from a current-format file without holding it:
 * one pass keeps a lean copy of each entry and where its line starts (enough to resolve
 * references, find the leaf, walk a path and resolve labels), a second reads again only the
 * lines of the chosen path, in file order, and writes them re-chained as they come
 * (`BranchBuilder`). The result is byte for byte what `SessionManager.createBranchedSession`
 * writes; a 1.2 GB session forks in bounded memory.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { canonicalLine, spliceLine, type ValueSpan } from "../core/read/canonical-line.ts";
import { type DecodeNotes, decodeObjectLine } from "../core/read/decode-line.ts";
import { LEAN_READ } from "../core/read/lean-entry.ts";
import { LineSplitter } from "../core/read/line-splitter.ts";
import { readSession } from "../core/read/read-session.ts";
import { dirName } from "../core/storage/paths.ts";
import { type FileSystem, isFsError } from "../io/file-system.ts";
import { withFileLock } from "../io/lock.ts";
import { BranchBuilder } from "./branched-session.ts";
import { EntryIndex, type ResolvedLabel } from "./entry-index.ts";
import { NotASessionError, refuseTooDeep, SessionWriteConflictError } from "./errors.ts";
import { SESSION_FILE_MODE } from "./session-writer.ts";
import { collectGarbage } from "../io/collect-garbage.ts";
import { Pieces } from "./pieces.ts";

/**
 * What branching looks at of an entry: its links and type, a label's target, text and time, a
 * message's role (a conversation starts at a user or assistant message). The rest is read again
 * for the entries of the chosen path only.
 */
function branchKeep(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: entry.type, id: entry.id, timestamp: entry.timestamp };
  if ("parentId" in entry) out.parentId = entry.parentId;
  if (entry.type === "label") {
    out.targetId = entry.targetId;
    out.label = entry.label;
  }
  const message = entry.message;
  if (entry.type === "message" && typeof message === "object" && message !== null) out.message = { role: (message as Record<string, unknown>).role };
  return out;
}

/** A session read for branching: lean entries, their lines' offsets, and the index over them. */
export interface BranchSource {
  header: SessionHeader;
  /** Lean copies of the entries (`branchKeep`), in file order. */
  entries: SessionEntry[];
  index: EntryIndex;
  /** Where each entry's line starts. */
  offsetOf: Map<SessionEntry, number>;
}

/**
 * Reads `path` for branching; null when the streamed way cannot give the same bytes: an older
 * version (migrated in memory), or a label whose text or time is not a string (a lean entry
 * keeps only its kind).
 */
export async function readBranchSource(fs: FileSystem, path: string): Promise<BranchSource | null> {
  let odd = false;
  const keep = (entry: Record<string, unknown>) => {
    if (entry.type === "label" && (typeof entry.label !== "string" || typeof entry.timestamp !== "string")) odd = true;
    return branchKeep(entry);
  };
  const file = await readSession(fs.read(path, { reuseBuffer: true }), { ...LEAN_READ, keep, offsets: true });
  refuseTooDeep(path, file.issues);
  if (file.notSession || file.header === null) throw new NotASessionError(path, file.issues);
  if (file.migrated || odd) return null;
  const offsetOf = new Map<SessionEntry, number>();
  file.entries.forEach((entry, i) => offsetOf.set(entry, file.entryOffsets![i]));
  return { header: file.header, entries: file.entries, index: new EntryIndex(file.entries), offsetOf };
}

/** The entry whose line starts at `offset` of `file`, parsed whole; undefined if it is no longer one. */
export async function readEntryAt(fs: FileSystem, file: string, offset: number): Promise<SessionEntry | undefined> {
  let entry: SessionEntry | undefined;
  let done = false;
  const splitter = new LineSplitter((line) => {
    if (done) return;
    done = true;
    entry = decodeObjectLine({ ...line, number: 2 }, { bom: false, crlf: false }, []) as unknown as SessionEntry | undefined;
  });
  for await (const chunk of fs.read(file, { start: offset, reuseBuffer: true })) {
    splitter.push(chunk);
    if (done) break;
  }
  if (!done) splitter.end();
  return entry;
}

/**
 * Bytes read between two garbage collections while a path is written. Lines JSON.stringify
 * wrote are spliced without becoming strings (`splicedLine`); any other line is parsed and
 * stringified again, and a file of such lines makes gigabytes of short-lived strings, which
 * Bun's collector let grow by hundreds of megabytes (a 1.2 GB clone, all parsed, peaked at
 * 540 MB): a full collection every 64 MB keeps that near what the pass holds.
 */
const COLLECT_EVERY = 64 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const LABEL = encoder.encode('"label"');
const COMPACTION = encoder.encode('"compaction"');

function spells(bytes: Uint8Array, span: ValueSpan | undefined, word: Uint8Array): boolean {
  if (span === undefined || span.end - span.start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (bytes[span.start + k] !== word[k]) return false;
  return true;
}

/** The string value at `span`, or undefined when it is not a string. */
function stringAt(bytes: Uint8Array, span: ValueSpan): string | undefined {
  return bytes[span.start] === 0x22 ? JSON.parse(decoder.decode(bytes.subarray(span.start, span.end))) : undefined;
}

/**
 * A path entry's line re-chained by changing its bytes, when they are what JSON.stringify would
 * write of them (`canonicalLine`): the new `parentId` (and a moved `firstKeptEntryId`) spliced
 * in, the rest copied, so nothing of the line becomes a string. The same bytes as stringifying
 * the parsed, re-chained entry, without the garbage of gigabytes of it. Gives the id written,
 * undefined for a label (dropped), or null when the line must be parsed.
 */
function splicedLine(bytes: Uint8Array, builder: BranchBuilder, out: Pieces): string | undefined | null {
  const members = canonicalLine(bytes);
  if (members === null || members.id === undefined) return null;
  const id = stringAt(bytes, members.id);
  const compaction = spells(bytes, members.type, COMPACTION);
  const firstKept = compaction && members.firstKeptEntryId !== undefined ? stringAt(bytes, members.firstKeptEntryId) : undefined;
  if (id === undefined || (compaction && members.firstKeptEntryId !== undefined && firstKept === undefined)) return null;
  const link = builder.link(spells(bytes, members.type, LABEL) ? "label" : compaction ? "compaction" : "", id, firstKept);
  if (link === undefined) return undefined;
  const changes: [ValueSpan, string][] = [];
  if (members.parentId !== undefined) changes.push([members.parentId, JSON.stringify(link.parentId)]);
  if (link.firstKeptEntryId !== undefined) changes.push([members.firstKeptEntryId!, JSON.stringify(link.firstKeptEntryId)]);
  // `{ ...entry, parentId }` adds it last when the entry had none.
  spliceLine(out, bytes, changes, members.parentId === undefined ? `,"parentId":${JSON.stringify(link.parentId)}` : "");
  return id;
}

/**
 * The new session's bytes: `header`, then the entries of a path (root first) whose lines start
 * at `wanted` (increasing offsets), read again whole and re-chained, then the re-emitted labels. `onLeaf` hears the id of the last entry written. Each piece is valid until
 * the next is asked for.
 */
export async function* branchBytes(
  fs: FileSystem,
  file: string,
  wanted: readonly number[],
  header: SessionHeader,
  labels: ReadonlyMap<string, ResolvedLabel>,
  newId: () => string,
  onLeaf: (id: string | null) => void,
): AsyncGenerator<Uint8Array> {
  const builder = new BranchBuilder();
  const out = new Pieces();
  out.add(JSON.stringify(header) + "\n");
  let leaf: string | null = null;
  let next = 0;
  const notes: DecodeNotes = { bom: false, crlf: false };
  const start = wanted[0] ?? 0;
  const splitter = new LineSplitter((line) => {
    if (next >= wanted.length || start + line.offset !== wanted[next]) return;
    next++;
    const spliced = splicedLine(line.bytes, builder, out);
    if (spliced !== null) {
      if (spliced !== undefined) leaf = spliced;
      return;
    }
    const entry = decodeObjectLine({ ...line, number: 2 }, notes, []) as unknown as SessionEntry | undefined;
    if (entry === undefined) throw new Error(`${file} changed while it was read: the line at byte ${start + line.offset} is no longer an entry`);
    const kept = builder.push(entry);
    if (kept === undefined) return;
    out.add(JSON.stringify(kept) + "\n");
    leaf = kept.id;
  });
  if (wanted.length > 0) {
    let read = 0;
    for await (const chunk of fs.read(file, { start, reuseBuffer: true })) {
      splitter.push(chunk);
      read += chunk.length;
      if (read >= COLLECT_EVERY) {
        read = 0;
        collectGarbage();
      }
      // Pieces made from this chunk go out before the next is read.
      for (const piece of out.ready) yield piece;
      out.release();
      if (next >= wanted.length) break;
    }
    if (next < wanted.length) splitter.end();
    if (next < wanted.length) throw new Error(`${file} changed while it was read: it ends before byte ${wanted[wanted.length - 1]}`);
  }
  for (const label of builder.labels(labels, newId)) {
    out.add(JSON.stringify(label) + "\n");
    leaf = label.id;
  }
  onLeaf(leaf);
  out.flush();
  yield* out.ready;
}

/**
 * Writes a new session file from `data` (made again for a second try), whole or not at all:
 * an exclusive create, or an atomic write over an empty file there; a file with content is never
 * touched (as `SessionWriter.writeAll`).
 */
export async function writeNewSession(fs: FileSystem, path: string, data: () => AsyncIterable<Uint8Array>): Promise<void> {
  await fs.mkdir(dirName(path), { recursive: true });
  await withFileLock(fs, path, async () => {
    try {
      await fs.writeAtomic(path, data(), { exclusive: true, mode: SESSION_FILE_MODE });
    } catch (error) {
      if (!isFsError(error, "AlreadyExists")) throw error;
      const existing = await fs.stat(path);
      if (existing?.isFile !== true || existing.size > 0) throw new SessionWriteConflictError(path, "a file is already there");
      await fs.writeAtomic(path, data(), { mode: existing.mode || SESSION_FILE_MODE });
    }
  }, { sweepFolder: true });
}
