/**
 * One read of a session file for `otel`: the entries as spans need them and the file's usage
 * rows as `stats` reads them (for the fork-proof attribution), from the same bytes. A file of
 * the current format is walked line by line like the usage digest walks it: only the fields a
 * span shows are read (ids, times, roles, models, usage, tool call ids, stop reasons), tool
 * output and message text are skipped unparsed. A line the walk cannot read, an older file (it
 * is migrated) and `--content` (it sends the text) go through the full reader instead.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { Digester } from "../core/digest/digester.ts";
import { usageDigest, usageRowOfEntry } from "../core/digest/usage-digest.ts";
import { emptyUsageState, pushRow, pushStampedRow, type UsageSource, type UsageState } from "../core/digest/usage-state.ts";
import { exactTimeAt, exactTimeText, hexIdAt } from "../core/digest/entry-stamp.ts";
import { entryUsage } from "../core/info/usage-totals.ts";
import { scanMembers } from "../core/digest/scan-members.ts";
import { decodeObjectLine, type DecodeNotes, isHeader, isObject } from "../core/read/decode-line.ts";
import { HEADER_SCAN_LIMIT, HeaderScan } from "../core/read/header-scan.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { LineSplitter, type RawLine } from "../core/read/line-splitter.ts";
import { SessionReader } from "../core/read/read-session.ts";
import { keyIs, stringValue, valueEnd } from "../core/read/scan-keys.ts";
import type { FileSystem } from "../io/file-system.ts";

/** What `otel` needs of one file. */
export interface SpanSource {
  /** Null when the file is not a session. */
  header: SessionHeader | null;
  /**
   * Every complete entry after the header, in file order (a torn last line left out). A walked
   * entry holds a timestamp written as `toISOString` writes it as its epoch ms (a number: the
   * time spans need, without a string made and parsed again); `exactTimeText` gives it back.
   */
  entries: SessionEntry[];
  /** The usage rows of the file, as the usage digest makes them. */
  usage: UsageState;
}

const QUOTE = 0x22;
const decoder = new TextDecoder();

/** Entry fields a span may show, kept as they are (all small). */
const ENTRY_FIELDS = ["type", "id", "parentId", "timestamp", "provider", "model", "kind", "name", "tokensBefore", "usage"];
/** Message fields a span may show, kept as they are; `content` keeps its tool call ids only. */
const MESSAGE_FIELDS = ["role", "provider", "model", "responseModel", "api", "stopReason", "errorMessage", "usage", "toolCallId", "toolName", "isError"];

/**
 * The JSON value in `b[start, end)`: strings without escapes decoded directly, `true`, `false`
 * and `null` read from their first byte (the walk found where they end), others parsed.
 */
function valueAt(b: Uint8Array, start: number, end: number): unknown {
  const c = b[start];
  if (c === QUOTE) return stringValue(b, start, end);
  const length = end - start;
  if (c === 0x74 && length === 4 && b[start + 3] === 0x65) return true;
  if (c === 0x66 && length === 5 && b[start + 4] === 0x65) return false;
  if (c === 0x6e && length === 4 && b[start + 3] === 0x6c) return null;
  return JSON.parse(decoder.decode(b.subarray(start, end)));
}

/** The words pi writes as entry types, roles, block types and stop reasons: read without making a string each time. */
const WORDS = [
  "message", "user", "assistant", "toolResult", "text", "thinking", "toolCall", "image", "toolUse", "stop", "error",
  "model_change", "thinking_level_change", "session_info", "label", "custom", "custom_message", "compaction", "branch_summary", "usage",
];

/** `valueAt` for a field whose value is usually one of `WORDS`. */
function wordAt(b: Uint8Array, start: number, end: number): unknown {
  for (const word of WORDS) if (keyIs(b, start, end, word)) return word;
  return valueAt(b, start, end);
}

/** Fields read with `wordAt`. */
const WORD_FIELDS: ReadonlySet<string> = new Set(["type", "role", "stopReason"]);

/** Fields that keep their value from message to message (a session's provider, model, API, tools). */
const REPEATED_FIELDS: ReadonlySet<string> = new Set(["provider", "model", "responseModel", "api", "toolName"]);
/** The last string read for each of `REPEATED_FIELDS`. */
const lastValues = new Map<string, string>();

/** True for a text the bytes of a JSON string spell as they are: ASCII, no backslash. */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || c === 0x5c) return false;
  }
  return true;
}

/**
 * `valueAt` for a field of `REPEATED_FIELDS`: the last value read for it when the bytes spell it
 * again (kept only when plain: bytes equal to its characters then hold no escape or UTF-8).
 */
function repeatedAt(field: string, b: Uint8Array, start: number, end: number): unknown {
  const last = lastValues.get(field);
  if (last !== undefined && b[start] === QUOTE && keyIs(b, start, end, last)) return last;
  const value = valueAt(b, start, end);
  if (typeof value === "string" && plain(value)) lastValues.set(field, value);
  return value;
}

/**
 * The walk over one line, made once and reused. Builds the lean entry as it goes; throws on a
 * value it cannot decode (the line then goes to the full reader).
 */
class SpanLineWalk {
  bytes: Uint8Array = new Uint8Array(0);
  entry: Record<string, unknown> = {};
  message: Record<string, unknown> = {};
  /** The entry's id and time as the usage digest keeps them (`entry-stamp.ts`), when it can. */
  id: number | undefined;
  ms: number | undefined;

  readonly visitEntry = (ks: number, ke: number, vs: number): number => {
    const b = this.bytes;
    // The message is walked once, by its members (its end is where they end).
    if (b[vs] === 0x7b && keyIs(b, ks, ke, "message")) {
      this.message = {};
      const after = scanMembers(b, vs, this.visitMessage);
      this.entry.message = this.message;
      return after;
    }
    const end = valueEnd(b, vs);
    if (end <= vs) return end;
    for (const key of ENTRY_FIELDS) {
      if (keyIs(b, ks, ke, key)) {
        // A parent is nearly always the entry on the line before: its id, read then, is reused.
        if (key === "timestamp") {
          const ms = this.ms = exactTimeAt(b, vs, end);
          this.entry.timestamp = ms ?? valueAt(b, vs, end);
          return end;
        }
        const value = key === "type" ? wordAt(b, vs, end) : key === "parentId" ? this.#parentAt(vs, end) : valueAt(b, vs, end);
        this.entry[key] = value;
        if (key === "id") {
          this.id = hexIdAt(b, vs, end);
          if (typeof value === "string" && plain(value)) this.#lineId = value;
        }
        return end;
      }
    }
    return end;
  };

  readonly visitMessage = (ks: number, ke: number, vs: number): number => {
    const b = this.bytes;
    if (b[vs] === 0x5b && keyIs(b, ks, ke, "content")) {
      // Only an assistant's content matters (its tool calls), walked once; a user's or a tool's
      // is skipped once its role is known (pi writes the role first).
      const role = this.message.role;
      if (role === "user" || role === "toolResult") {
        this.message.content = [];
        return valueEnd(b, vs);
      }
      const calls: unknown[] = [];
      this.message.content = calls;
      return this.#toolCalls(vs, calls);
    }
    const end = valueEnd(b, vs);
    if (end <= vs) return end;
    for (const key of MESSAGE_FIELDS) {
      if (keyIs(b, ks, ke, key)) {
        this.message[key] = WORD_FIELDS.has(key) ? wordAt(b, vs, end) : REPEATED_FIELDS.has(key) ? repeatedAt(key, b, vs, end) : valueAt(b, vs, end);
        return end;
      }
    }
    if (keyIs(b, ks, ke, "content")) this.message.content = "";
    return end;
  };

  /** The type and id of the content block being walked. */
  #blockType: unknown;
  #blockId: unknown;

  readonly #visitBlock = (ks: number, ke: number, vs: number): number => {
    const b = this.bytes;
    const end = valueEnd(b, vs);
    if (keyIs(b, ks, ke, "type")) this.#blockType = wordAt(b, vs, end);
    else if (keyIs(b, ks, ke, "id")) this.#blockId = valueAt(b, vs, end);
    return end;
  };

  /**
   * Collects the tool calls of the content array opening at `start` into `calls`, as
   * `{type: "toolCall", id}`; returns the index just past the array, or -1.
   */
  #toolCalls(start: number, calls: unknown[]): number {
    const b = this.bytes;
    let i = start + 1;
    while (i < b.length) {
      const c = b[i];
      if (c === 0x7b) {
        this.#blockType = this.#blockId = undefined;
        const after = scanMembers(b, i, this.#visitBlock);
        if (after < 0) throw new SyntaxError("content block");
        const type = this.#blockType;
        if (type === "toolCall") calls.push(this.#blockId === undefined ? { type } : { type, id: this.#blockId });
        i = after;
      } else if (c === QUOTE || c === 0x5b) {
        const after = valueEnd(b, i);
        if (after < 0) throw new SyntaxError("content value");
        i = after;
      } else if (c === 0x5d) {
        return i + 1;
      } else i++;
    }
    return -1;
  }

  /** The id of the line before (plain, see `plain`), and of this one once read. */
  #lastId: string | undefined;
  #lineId: string | undefined;

  /** A `parentId` value: the line before's id when the bytes spell it, else read. */
  #parentAt(start: number, end: number): unknown {
    const last = this.#lastId;
    const b = this.bytes;
    return last !== undefined && b[start] === QUOTE && keyIs(b, start, end, last) ? last : valueAt(b, start, end);
  }

  /** The lean entry of a line, or undefined when the walk cannot read it. */
  walk(bytes: Uint8Array): Record<string, unknown> | undefined {
    this.#lastId = this.#lineId;
    this.#lineId = undefined;
    this.bytes = bytes;
    this.entry = {};
    this.id = this.ms = undefined;
    return scanMembers(bytes, 0, this.visitEntry) >= 0 ? this.entry : undefined;
  }
}

const walker = new SpanLineWalk();

/** Where an entry's usage comes from, in the digest's words (for an entry that has usage). */
function sourceOf(entry: SessionEntry): UsageSource {
  if (entry.type !== "message") return entry.type as UsageSource;
  return (entry as { message: { role: string } }).message.role === "assistant" ? "assistant" : "toolResult";
}

/**
 * Reads a file of the current format by walking its lines (see the module comment); chunks in,
 * `SpanSource` out, or each entry to `onEntry` as it is read (`SpanSource.entries` then empty).
 */
export class WalkingReader {
  #splitter = new LineSplitter((line) => this.#onLine(line));
  /** Where the entries go as they are read; without, they are kept (`end` gives them). */
  readonly #onEntry: ((entry: SessionEntry) => void) | undefined;
  #notes: DecodeNotes = { bom: false, crlf: false };
  #issues: ReadIssue[] = [];
  #header: SessionHeader | null = null;
  #notSession = false;
  #entries: SessionEntry[] = [];
  #usage = emptyUsageState();

  constructor(onEntry?: (entry: SessionEntry) => void) {
    this.#onEntry = onEntry;
  }

  push(chunk: Uint8Array): void {
    if (!this.#notSession) this.#splitter.push(chunk);
  }

  end(): SpanSource {
    this.#splitter.end();
    return { header: this.#notSession ? null : this.#header, entries: this.#entries, usage: this.#usage };
  }

  #onLine(line: RawLine): void {
    if (this.#notSession) return;
    if (this.#header === null) {
      const value = decodeObjectLine(line, this.#notes, this.#issues);
      if (value === undefined) return;
      if (isHeader(value)) this.#header = value as unknown as SessionHeader;
      else this.#notSession = true;
      return;
    }
    let entry: Record<string, unknown> | undefined;
    let walked = false;
    // A last line without its newline may be one still being written: only a full parse says it is whole.
    if (line.terminated) {
      try {
        entry = walker.walk(line.bytes);
        walked = entry !== undefined;
      } catch {
        entry = undefined;
      }
    }
    entry ??= decodeObjectLine(line, this.#notes, this.#issues);
    if (entry === undefined || entry.type === "session") return;
    const sessionEntry = entry as unknown as SessionEntry;
    if (this.#onEntry) this.#onEntry(sessionEntry);
    else this.#entries.push(sessionEntry);
    if (walked && walker.id !== undefined && walker.ms !== undefined) {
      // The row as the digest stamps it: id and time read from the bytes, no strings parsed again.
      const found = entryUsage(sessionEntry);
      if (found && isObject(found.usage)) pushStampedRow(this.#usage, sourceOf(sessionEntry), found.key, walker.id, walker.ms, found.usage);
      return;
    }
    // The digest's row of an entry without a stamp (an id not in pi's form) reads the time as written.
    if (typeof entry.timestamp === "number") entry.timestamp = exactTimeText(entry.timestamp);
    const row = usageRowOfEntry(sessionEntry);
    if (row) pushRow(this.#usage, row);
  }
}

/** Reads any session file with the full reader (migrating older ones), its usage with the digest. */
class FullReader {
  #reader = new SessionReader();
  #digester = new Digester(usageDigest);

  push(chunk: Uint8Array): void {
    this.#reader.push(chunk);
    this.#digester.push(chunk);
  }

  end(): SpanSource {
    const file = this.#reader.end();
    const { state, final } = this.#digester.finish();
    // A last line without its newline counts when it parses, for the reader and the digest alike.
    const usage = (final ?? state).data;
    return { header: file.notSession ? null : file.header, entries: file.entries, usage };
  }
}

/**
 * Reads one session for its spans: `walk` for a file of the current format whose content is not
 * sent (the quick way), else the full reader; with `onEntry` (a walk only), each entry goes
 * there as it is read instead of being kept.
 *
 * @example
 * ```ts
 * const source = await readSpanSource(fs.read(path), true);
 * source.entries.length; // the complete entries
 * ```
 */
export async function readSpanSource(chunks: AsyncIterable<Uint8Array>, walk: boolean, onEntry?: (entry: SessionEntry) => void): Promise<SpanSource> {
  const reader = walk ? new WalkingReader(onEntry) : new FullReader();
  for await (const chunk of chunks) reader.push(chunk);
  return reader.end();
}

/** Bytes read first for a header: pi's headers are a few hundred bytes. */
const HEADER_PEEK = 4096;

/**
 * The header of a session file, reading only its start (at most `HEADER_SCAN_LIMIT` bytes);
 * null when the first line that parses is not a usable header.
 */
export async function readHeader(fs: FileSystem, path: string): Promise<SessionHeader | null> {
  const scan = new HeaderScan();
  // Into the adapter's reused buffer: the scan keeps none of it (a fresh 4 KB per file was 10 MB for 2,400 files).
  for await (const chunk of fs.read(path, { end: HEADER_PEEK, reuseBuffer: true })) scan.push(chunk);
  if (!scan.done) for await (const chunk of fs.read(path, { start: HEADER_PEEK, end: HEADER_SCAN_LIMIT })) {
    scan.push(chunk);
    if (scan.done) break;
  }
  return scan.end();
}
