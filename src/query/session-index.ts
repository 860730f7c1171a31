/**
 * Where each entry of a session file is: one pass over the file gives, for every entry line,
 * its byte offset and length (typed arrays) and its linking fields (labels and `session_info`
 * in full), so a page of entries is read from the bytes of its lines alone and the tree's shape
 * is known without holding a single text. An exact index decides which lines are entries as
 * the full reader does (each line decoded and parsed, then dropped); a quick one, as the
 * export's light pass does (the linking fields read from the bytes; a line torn past them
 * still counts), at a third of the cost. When the file grows, as pi appends, only the new
 * bytes are read; a file rewritten in place is indexed again. Files older than the current
 * version (ids assigned by migration) are not indexed.
 * @module
 */
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../core/format/types.ts";
import { headerVersion } from "../core/migrate/migrate-session.ts";
import { type DecodeNotes, decodeObjectLine, isHeader, tooDeepIssue } from "../core/read/decode-line.ts";
import { issue, type ReadIssue } from "../core/read/issue.ts";
import { nestsDeeperThan } from "../core/read/json-depth.ts";
import { LineSplitter, type RawLine } from "../core/read/line-splitter.ts";
import { scanEntryKeys } from "../core/read/scan-keys.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import type { FileStat, FileSystem } from "../io/file-system.ts";

/** Entry types the tree needs whole (labels, the session name); every other entry keeps its linking fields. */
const KEPT_WHOLE = new Set(["label", "session_info"]);

/** Bytes at the start and at the end of the indexed part compared before an index is extended. */
const FINGERPRINT = 256;

/** Near lines are read in one range rather than two. */
const MERGE_GAP = 64 * 1024;

/** What the full reader would say of the file, as far as the index can tell. */
export type IndexUse = { usable: true } | { usable: false; why: "old-version" | "not-a-session" };

async function readRange(fs: FileSystem, path: string, start: number, end: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(Math.max(0, end - start));
  let at = 0;
  for await (const chunk of fs.read(path, { start, end })) {
    const n = Math.min(chunk.length, bytes.length - at);
    bytes.set(chunk.subarray(0, n), at);
    at += n;
    if (at >= bytes.length) break;
  }
  return bytes.subarray(0, at);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The index of one session file, as of one `stat` of it. Complete lines only: the bytes after
 * the last newline (a line pi is still writing) are read again by each `view`.
 */
export class SessionIndex {
  readonly path: string;
  /** True when entries were decided as the full reader decides them (see the module comment). */
  readonly exact: boolean;
  /** The size and mtime of the file when the index was last brought up to date. */
  size = 0;
  mtimeMs = 0;
  /** Bytes covered: up to and including the last newline read. */
  end = 0;
  header: SessionHeader | null = null;
  version = 0;
  /** True once the first JSON object was found not to be a header: nothing else counts. */
  notSession = false;
  /** The linking fields of each entry, in file order (labels and `session_info` whole). */
  readonly entries: SessionEntry[] = [];
  /** Byte offset, length (without the newline) and 1-based line number of each entry's line. */
  offsets = new Float64Array(64);
  lengths = new Uint32Array(64);
  lines = new Uint32Array(64);
  /** Problems of the complete lines, as the full reader reports them (unsorted). */
  readonly issues: ReadIssue[] = [];
  readonly notes: DecodeNotes = { bom: false, crlf: false };
  /** Complete lines read. */
  lineCount = 0;
  #sawObject = false;
  #head: Uint8Array = new Uint8Array(0);
  #tail: Uint8Array = new Uint8Array(0);
  #tree: SessionTree | null = null;

  constructor(path: string, exact = true) {
    this.path = path;
    this.exact = exact;
  }

  get count(): number {
    return this.entries.length;
  }

  /** Whether queries can use the index, or must read the file in full (migration, not a session). */
  use(): IndexUse {
    if (this.notSession || !this.header) return { usable: false, why: "not-a-session" };
    if (this.version < CURRENT_SESSION_VERSION) return { usable: false, why: "old-version" };
    return { usable: true };
  }

  /**
   * The tree over the indexed entries (linking fields only), built once per extension, over a
   * copy of the list: its `entries` stay as they were when a later read extends the index.
   */
  tree(): SessionTree {
    return (this.#tree ??= new SessionTree(this.entries.slice()));
  }

  /** Indexes the whole file as `stat` found it; `exact` false for a quick index. */
  static async build(fs: FileSystem, path: string, stat: FileStat, exact = true): Promise<SessionIndex> {
    const index = new SessionIndex(path, exact);
    await index.#read(fs, stat);
    return index;
  }

  /**
   * The index for the file as `stat` finds it now: this one, this one extended by the bytes
   * appended since, or (a file rewritten, shrunk, or changed in the part read) a new one.
   */
  async refreshed(fs: FileSystem, stat: FileStat): Promise<SessionIndex> {
    if (stat.size === this.size && stat.mtimeMs === this.mtimeMs) return this;
    // Grown (pi appends) with the bytes read still in place: read on. Anything else: from the start.
    if (stat.size > this.size && (await this.#unchanged(fs))) {
      await this.#read(fs, stat);
      return this;
    }
    return SessionIndex.build(fs, this.path, stat, this.exact);
  }

  /** True when the first and last bytes indexed are still what they were. */
  async #unchanged(fs: FileSystem): Promise<boolean> {
    if (this.end === 0) return true;
    const head = await readRange(fs, this.path, 0, this.#head.length);
    const tail = await readRange(fs, this.path, this.end - this.#tail.length, this.end);
    return sameBytes(head, this.#head) && sameBytes(tail, this.#tail);
  }

  /** Reads the complete lines from `end` to `stat.size`. */
  async #read(fs: FileSystem, stat: FileStat): Promise<void> {
    const base = this.end;
    const firstLine = this.lineCount;
    let last = base;
    const splitter = new LineSplitter((line) => {
      const at: RawLine = { bytes: line.bytes, number: firstLine + line.number, offset: base + line.offset, terminated: true };
      this.#onLine(at);
      last = at.offset + line.bytes.length + 1;
      this.lineCount = at.number;
    });
    // The bytes after the last newline are not given to `end()`: they are a line still being written.
    if (stat.size > base) for await (const chunk of fs.read(this.path, { start: base, end: stat.size, reuseBuffer: true })) splitter.push(chunk);
    this.end = last;
    this.size = stat.size;
    this.mtimeMs = stat.mtimeMs;
    this.#tree = null;
    if (this.end > 0) {
      if (this.#head.length < FINGERPRINT) this.#head = await readRange(fs, this.path, 0, Math.min(FINGERPRINT, this.end));
      this.#tail = await readRange(fs, this.path, Math.max(0, this.end - FINGERPRINT), this.end);
    }
  }

  #onLine(line: RawLine): void {
    if (this.notSession) return;
    if (!this.exact && this.#sawObject && line.number > 1 && this.#quick(line)) return;
    const value = decodeObjectLine(line, this.notes, this.issues);
    if (value === undefined) return;
    if (!this.#sawObject) {
      this.#sawObject = true;
      if (!isHeader(value)) {
        this.notSession = true;
        return;
      }
      this.header = value as unknown as SessionHeader;
      this.version = headerVersion(value);
      return;
    }
    if (value.type === "session") {
      this.issues.push(issue(line.number, "duplicate-header", `Line ${line.number} is a second session header; it is ignored`));
      return;
    }
    const entry = (KEPT_WHOLE.has(value.type as string)
      ? value
      : { type: value.type, id: value.id, parentId: value.parentId, timestamp: value.timestamp }) as unknown as SessionEntry;
    this.#add(line, entry);
  }

  /** A line taken by its linking fields alone, as the light pass takes it; false to parse it. */
  #quick(line: RawLine): boolean {
    // Checked before the key scan, which would find a deep line's linking fields all the same.
    if (nestsDeeperThan(line.bytes)) {
      this.issues.push(tooDeepIssue(line.number));
      return true;
    }
    const keys = scanEntryKeys(line.bytes);
    if (!keys || typeof keys.type !== "string" || KEPT_WHOLE.has(keys.type)) return false;
    if (keys.type === "session") {
      this.issues.push(issue(line.number, "duplicate-header", `Line ${line.number} is a second session header; it is ignored`));
      return true;
    }
    this.#add(line, { type: keys.type, id: keys.id, parentId: keys.parentId, timestamp: keys.timestamp } as unknown as SessionEntry);
    return true;
  }

  #add(line: RawLine, entry: SessionEntry): void {
    const n = this.entries.length;
    if (n === this.offsets.length) this.#grow();
    this.offsets[n] = line.offset;
    this.lengths[n] = line.bytes.length;
    this.lines[n] = line.number;
    this.entries.push(entry);
  }

  #grow(): void {
    const size = this.offsets.length * 2;
    const offsets = new Float64Array(size);
    offsets.set(this.offsets);
    const lengths = new Uint32Array(size);
    lengths.set(this.lengths);
    const lines = new Uint32Array(size);
    lines.set(this.lines);
    this.offsets = offsets;
    this.lengths = lengths;
    this.lines = lines;
  }

  /**
   * The entries at positions `from` (inclusive) to `to` (exclusive), parsed from their lines,
   * in order. A line that no longer parses as it did (the file changed under the read) gives
   * undefined in its place.
   */
  async read(fs: FileSystem, from: number, to: number): Promise<(SessionEntry | undefined)[]> {
    const positions: number[] = [];
    for (let i = from; i < Math.min(to, this.count); i++) positions.push(i);
    return this.readAt(fs, positions);
  }

  /** The entries at `positions` (ascending), parsed from their lines (see `read`). */
  async readAt(fs: FileSystem, positions: readonly number[]): Promise<(SessionEntry | undefined)[]> {
    const out: (SessionEntry | undefined)[] = [];
    const notes: DecodeNotes = { bom: false, crlf: false };
    for (let i = 0; i < positions.length;) {
      let j = i + 1;
      let end = this.offsets[positions[i]] + this.lengths[positions[i]];
      while (j < positions.length && this.offsets[positions[j]] - end <= MERGE_GAP) {
        end = this.offsets[positions[j]] + this.lengths[positions[j]];
        j++;
      }
      const start = this.offsets[positions[i]];
      const bytes = await readRange(fs, this.path, start, end);
      for (let k = i; k < j; k++) {
        const p = positions[k];
        const at = this.offsets[p] - start;
        const line: RawLine = { bytes: bytes.subarray(at, at + this.lengths[p]), number: this.lines[p], offset: this.offsets[p], terminated: true };
        const value = decodeObjectLine(line, notes, []) as unknown as SessionEntry | undefined;
        out.push(value !== undefined && value.id === this.entries[p].id ? value : undefined);
      }
      i = j;
    }
    return out;
  }
}

/** An index and the line after it that pi may still be writing, as one read of the file sees them. */
export interface SessionView {
  index: SessionIndex;
  /** The last line when the file does not end with a newline and it parses as an entry. */
  tailEntry: SessionEntry | null;
  /** Every problem the full reader would report, sorted by line as it sorts them. */
  issues: ReadIssue[];
  /** The entries' linking fields, the tail's included, and the tree over them. */
  entries: readonly SessionEntry[];
  tree: SessionTree;
}

/**
 * The index with the unterminated last line (if any) decoded as the full reader decodes it:
 * an entry when it parses, a `torn-line` problem when not, and `missing-newline` either way.
 */
export async function sessionView(fs: FileSystem, index: SessionIndex): Promise<SessionView> {
  // Everything taken now, before any wait: another request may extend the index meanwhile.
  const indexed = index.tree();
  const { end, size, lineCount } = index;
  const issues = [...index.issues];
  const notes: DecodeNotes = { ...index.notes };
  let tailEntry: SessionEntry | null = null;
  let lastLine = lineCount;
  let terminated = true;
  let tailHeader = false;
  if (size > end) {
    const bytes = await readRange(fs, index.path, end, size);
    lastLine = lineCount + 1;
    terminated = false;
    const value = decodeObjectLine({ bytes, number: lastLine, offset: end, terminated: false }, notes, issues);
    if (value !== undefined && value.type !== "session") tailEntry = value as unknown as SessionEntry;
    else tailHeader = value !== undefined;
  }
  if (notes.bom) issues.unshift(issue(1, "bom", "The file starts with a UTF-8 byte order mark"));
  if (notes.crlf) issues.push(issue(0, "crlf", "Lines end with CRLF instead of LF"));
  if (!terminated && !issues.some((i) => i.code === "torn-line" && i.line === lastLine)) {
    issues.push(issue(lastLine, "missing-newline", `The file does not end with a newline (line ${lastLine})`));
  }
  // Second headers are noted after the rest, as the full reader notes them.
  if (tailHeader) issues.push(issue(lastLine, "duplicate-header", `Line ${lastLine} is a second session header; it is ignored`));
  issues.sort((a, b) => a.line - b.line);
  const tree = tailEntry ? new SessionTree([...indexed.entries, tailEntry]) : indexed;
  return { index, tailEntry, issues, entries: tree.entries, tree };
}
