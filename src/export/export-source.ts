/**
 * A session opened for export without holding it in memory: one light pass gives the header,
 * every entry's linking fields (and labels and names in full), enough for the tree, `--leaf`
 * and the branch; a second pass then streams the raw lines of the entries to export. Files
 * older than version 3 need ids assigned across the whole file, so they are read in full.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { decodeLine } from "../core/read/decode-line.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { LineSplitter } from "../core/read/line-splitter.ts";
import { readSession } from "../core/read/read-session.ts";
import { type SessionSkeleton, type SkeletonEntry, SkeletonReader } from "../core/read/skeleton-reader.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import type { FileSystem } from "../io/file-system.ts";
import { collectGarbage, collectInPass } from "../io/collect-garbage.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";
import { NotASessionError, refuseTooDeep } from "../session/errors.ts";
import { type LineBatch, lineBatches, type LinePlaces, linePlaces, orderedEntries } from "./ordered-lines.ts";

/** Entry types whose content the tree needs (labels, the session name), read in full up front. */
const NEEDED_IN_FULL = new Set(["label", "session_info"]);

/** Files from this size on get a garbage collection after the light pass. */
const BIG_FILE = 64 * 1024 * 1024;

/** Bytes read by `lines` between two full collections, unless its caller says fewer. */
const LINES_COLLECT_EVERY = 64 * 1024 * 1024;

/** Lines closer than this are read in one range rather than two. */
const MERGE_GAP = 64 * 1024;

export interface ExportSource {
  path: string;
  header: SessionHeader;
  /**
   * The entry tree. On the streaming path its entries carry only `type`, `id`, `parentId`
   * and `timestamp` (labels and `session_info` in full): enough for paths, labels and names.
   */
  tree: SessionTree;
  issues: ReadIssue[];
  /**
   * The JSON text (UTF-8 bytes, no newline) of each entry in `keep`, in file order.
   * `collectEvery`: bytes read between two garbage collections (64 MB; fewer when every line is parsed).
   */
  lines(keep: ReadonlySet<SessionEntry>, options?: { collectEvery?: number }): AsyncIterable<Uint8Array>;
  /**
   * The same lines as `lines`, a batch of a few megabytes at a time, read by the byte ranges the
   * light pass found (neither split again nor parsed). Absent where the file was read whole.
   */
  lineBatches?(keep: ReadonlySet<SessionEntry>): AsyncIterable<LineBatch>;
  /** The entries in `keep`, parsed, in file order. Lines that no longer parse are skipped. */
  entries(keep: ReadonlySet<SessionEntry>): AsyncIterable<SessionEntry>;
  /**
   * The given tree entries parsed, in the order given (a branch root to leaf), a few megabytes
   * at a time. Lines that no longer parse are skipped, their problem added to `issues`. The list
   * is read when this is called: the iterable holds neither it nor the source.
   * `collectEvery`: bytes read between two garbage collections (fewer for a caller that makes
   * much garbage of each entry).
   */
  inOrder(list: readonly SessionEntry[], options?: { collectEvery?: number }): AsyncIterable<SessionEntry>;
}

const encoder = new TextEncoder();

async function readRange(fs: FileSystem, path: string, start: number, end: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(end - start);
  let at = 0;
  for await (const chunk of fs.read(path, { start, end })) {
    bytes.set(chunk.subarray(0, Math.min(chunk.length, bytes.length - at)), at);
    at += chunk.length;
    if (at >= bytes.length) break;
  }
  return bytes.subarray(0, Math.min(at, bytes.length));
}

/** Parses the lines of `wanted` from their byte ranges (merged where close) into `entry`. */
async function loadInFull(fs: FileSystem, path: string, wanted: SkeletonEntry[], issues: ReadIssue[]): Promise<void> {
  for (let i = 0; i < wanted.length;) {
    let j = i + 1;
    let end = wanted[i].offset + wanted[i].length;
    while (j < wanted.length && wanted[j].offset - end <= MERGE_GAP) {
      end = wanted[j].offset + wanted[j].length;
      j++;
    }
    const start = wanted[i].offset;
    const bytes = await readRange(fs, path, start, end);
    for (const item of wanted.slice(i, j)) {
      const line = { bytes: bytes.subarray(item.offset - start, item.offset - start + item.length), number: item.line, offset: item.offset, terminated: true };
      const decoded = decodeLine(line, { bom: false, crlf: false }, issues);
      if (decoded.kind === "value") item.entry = decoded.value as SessionEntry;
    }
    i = j;
  }
}

async function* parsed(lines: AsyncIterable<Uint8Array>): AsyncIterable<SessionEntry> {
  const decoder = new TextDecoder();
  for await (const bytes of lines) {
    try {
      yield JSON.parse(decoder.decode(bytes)) as SessionEntry;
    } catch {
      // The light pass found the linking fields, but the line is torn further on: nothing to export.
    }
  }
}

/**
 * A last line the file ends in the middle of (a write cut short) is left out, as a full read
 * leaves it out, when it does not parse: the light pass reads only its first fields, and would
 * make it the leaf. `size`: the file's size when it does not end with a newline, else -1.
 */
async function dropTornLastLine(fs: FileSystem, path: string, skeleton: SessionSkeleton, size: number): Promise<void> {
  const last = skeleton.entries.at(-1);
  if (!last || last.offset + last.length !== size) return;
  const bytes = await readRange(fs, path, last.offset, size);
  const decoded = decodeLine({ bytes, number: last.line, offset: last.offset, terminated: false }, { bom: false, crlf: false }, []);
  if (decoded.kind === "value") return;
  skeleton.entries.pop();
  if (decoded.kind === "error") skeleton.issues.push(decoded.issue);
}

function placesOf(itemOf: ReadonlyMap<SessionEntry, SkeletonEntry>, list: readonly SessionEntry[]): LinePlaces {
  return linePlaces(list.map((entry) => itemOf.get(entry)).filter((item): item is SkeletonEntry => item !== undefined));
}

/** Streaming source of a version 3 file: the skeleton now, raw lines on demand. */
async function streamingSource(fs: FileSystem, path: string, skeleton: ReturnType<SkeletonReader["end"]>): Promise<ExportSource> {
  const issues = skeleton.issues;
  await loadInFull(fs, path, skeleton.entries.filter((e) => NEEDED_IN_FULL.has(e.type) && !e.entry), issues);
  const itemOf = new Map<SessionEntry, SkeletonEntry>();
  const entries = skeleton.entries.map((item) => {
    const entry = (item.entry ?? { type: item.type, id: item.id, parentId: item.parentId, timestamp: item.timestamp }) as SessionEntry;
    itemOf.set(entry, item);
    return entry;
  });
  const tree = new SessionTree(entries);
  // Only the places of the lines are kept for the read, not the list or the tree: a caller
  // that lets go of the source keeps the read going in little memory.
  const inOrder = (list: readonly SessionEntry[], options: { collectEvery?: number } = {}) =>
    orderedEntries<SessionEntry>(fs, path, placesOf(itemOf, list), issues, options.collectEvery);
  async function* lines(keep: ReadonlySet<SessionEntry>, options: { collectEvery?: number } = {}): AsyncIterable<Uint8Array> {
    const wanted = new Set<number>();
    for (const entry of keep) {
      const item = itemOf.get(entry);
      if (item !== undefined) wanted.add(item.line);
    }
    let ready: Uint8Array[] = [];
    const splitter = new LineSplitter((line) => {
      if (!wanted.has(line.number)) return;
      let bytes = line.bytes;
      if (bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
      ready.push(bytes);
    });
    // The pages freed are the next lines' to reuse: kept, under a budget (`collectInPass`).
    const pacer = new GarbagePacer({ everyAmount: options.collectEvery ?? LINES_COLLECT_EVERY, collect: () => collectInPass() });
    // Lines are handed out before the next chunk is read, so the reused buffer is still theirs.
    for await (const chunk of fs.read(path, { reuseBuffer: true })) {
      pacer.add(chunk.length);
      splitter.push(chunk);
      const out = ready;
      ready = [];
      yield* out;
    }
    splitter.end();
    yield* ready;
  }
  const batches = (keep: ReadonlySet<SessionEntry>) =>
    lineBatches(fs, path, linePlaces(skeleton.entries.filter((item, i) => keep.has(entries[i]))));
  return { path, header: skeleton.header!, tree, issues, lines, lineBatches: batches, entries: (keep) => parsed(lines(keep)), inOrder };
}

/**
 * Opens `path` for export. Throws `NotASessionError` when it is not a session.
 *
 * @example
 * ```ts
 * // const source = await openExportSource(fs, "s.jsonl");
 * // for await (const entry of source.entries(new Set(source.tree.getPath()))) …
 * ```
 */
export async function openExportSource(fs: FileSystem, path: string): Promise<ExportSource> {
  const reader = new SkeletonReader();
  let size = 0;
  let lastByte = 0x0a;
  for await (const chunk of fs.read(path, { reuseBuffer: true })) {
    reader.push(chunk);
    size += chunk.length;
    if (chunk.length > 0) lastByte = chunk[chunk.length - 1];
  }
  const skeleton = reader.end();
  // The light pass of a big file leaves much garbage behind: cleared before the next read.
  if (size >= BIG_FILE) collectGarbage();
  refuseTooDeep(path, skeleton.issues);
  if (skeleton.notSession) throw new NotASessionError(path, skeleton.issues);
  if (skeleton.version >= 3) {
    await dropTornLastLine(fs, path, skeleton, lastByte === 0x0a ? -1 : size);
    return streamingSource(fs, path, skeleton);
  }
  // Old files: ids are assigned by migration, over the whole file, in memory.
  const file = await readSession(fs.read(path, { reuseBuffer: true }));
  refuseTooDeep(path, file.issues);
  if (file.notSession || !file.header) throw new NotASessionError(path, file.issues);
  const tree = new SessionTree(file.entries);
  async function* entries(keep: ReadonlySet<SessionEntry>): AsyncIterable<SessionEntry> {
    for (const entry of file.entries) if (keep.has(entry)) yield entry;
  }
  async function* lines(keep: ReadonlySet<SessionEntry>): AsyncIterable<Uint8Array> {
    for await (const entry of entries(keep)) yield encoder.encode(JSON.stringify(entry));
  }
  async function* inOrder(list: readonly SessionEntry[]): AsyncIterable<SessionEntry> {
    yield* list;
  }
  return { path, header: file.header, tree, issues: file.issues, lines, entries, inOrder };
}
