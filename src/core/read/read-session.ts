/**
 * The full reader: bytes in chunks -> lines -> entries, migrated to the current format
 * in memory. Problems become issues with line numbers; reading never writes.
 * @module
 */
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../format/types.ts";
import { headerVersion, migrateSession } from "../migrate/migrate-session.ts";
import { type DecodeNotes, decodeObjectLine, headerIssue, isHeader } from "./decode-line.ts";
import { issue, type ReadIssue } from "./issue.ts";
import { LineSplitter, type RawLine } from "./line-splitter.ts";

/** A session file as read: header, entries (current format), and what was wrong with it. */
export interface SessionFile {
  header: SessionHeader | null;
  /** Every entry after the header, in file order, migrated to version 3 in memory. */
  entries: SessionEntry[];
  /** The 1-based file line of each entry in `entries`. */
  entryLines: number[];
  /** With `offsets`: the byte offset in the file of each entry's line, to read it again. */
  entryOffsets?: number[];
  issues: ReadIssue[];
  /** The version on disk (a missing version is 1); 0 when not a session. */
  version: number;
  /** True when the in-memory entries differ from the disk because of migration. */
  migrated: boolean;
  /** True when the first parsed line is not a valid header: nothing else is trusted. */
  notSession: boolean;
  endsWithNewline: boolean;
  lineCount: number;
  byteLength: number;
}

/** How a reader treats entries. */
export interface ReadOptions {
  /**
   * What to hold of each entry (current format, after any migration), e.g. `leanEntry`. For a
   * current-version file it runs as each line is read, so the full entries are never all in
   * memory at once; an older file is migrated whole first. `whole`: for an entry parsed from a
   * skimmed line (see `skim`), the line's bytes as read, to parse again when what was cut
   * matters after all (valid during the call only: the reader may reuse the buffer).
   */
  keep?: (entry: Record<string, unknown>, whole?: Uint8Array) => Record<string, unknown>;
  /**
   * With `keep`, for long lines of a current-version file: the line's bytes with what `keep`
   * would drop anyway cut out before parsing (e.g. `skimLine`), or undefined to parse it whole.
   * A skimmed line that does not parse cleanly is parsed again whole.
   */
  skim?: (bytes: Uint8Array) => Uint8Array | undefined;
  /** Note where each entry's line starts (`entryOffsets`), for a reader that reads some again. */
  offsets?: boolean;
}

/** Lines at least this long are offered to `skim`. */
const SKIM_FROM = 4096;

/**
 * Incremental reader; `readSession` and `parseSession` wrap it.
 *
 * @example Feed chunks
 * ```ts
 * const reader = new SessionReader();
 * reader.push(new TextEncoder().encode('{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n'));
 * const file = reader.end(); // file.header.id === "s"
 * ```
 */
export class SessionReader {
  #splitter = new LineSplitter((line) => this.#onLine(line));
  #notes: DecodeNotes = { bom: false, crlf: false };
  #issues: ReadIssue[] = [];
  #objects: Record<string, unknown>[] = [];
  #objectLines: number[] = [];
  #objectOffsets: number[] | undefined;
  #lastLine: RawLine | null = null;
  #bytes = 0;
  #keep: ReadOptions["keep"];
  #skim: ReadOptions["skim"];
  /** True once the header says the file needs no migration: `keep` runs line by line. */
  #live = false;

  constructor(options: ReadOptions = {}) {
    this.#keep = options.keep;
    this.#skim = options.skim;
    if (options.offsets) this.#objectOffsets = [];
  }

  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    this.#splitter.push(chunk);
  }

  end(): SessionFile {
    this.#splitter.end();
    return this.#finish();
  }

  #onLine(line: RawLine): void {
    this.#lastLine = line;
    let value = this.#live && this.#skim && line.bytes.length >= SKIM_FROM ? this.#skimmed(line) : undefined;
    const whole = value === undefined ? undefined : line.bytes;
    value ??= decodeObjectLine(line, this.#notes, this.#issues);
    if (value === undefined) return;
    if (this.#objects.length === 0) {
      this.#live = this.#keep !== undefined && isHeader(value) && headerVersion(value) >= CURRENT_SESSION_VERSION;
    } else if (this.#live && value.type !== "session") value = this.#keep!(value, whole);
    this.#objects.push(value);
    this.#objectLines.push(line.number);
    this.#objectOffsets?.push(line.offset);
  }

  /** The line parsed with its bulk cut out, or undefined to parse it whole. */
  #skimmed(line: RawLine): Record<string, unknown> | undefined {
    const bytes = this.#skim!(line.bytes);
    if (bytes === undefined) return undefined;
    const issues: ReadIssue[] = [];
    const value = decodeObjectLine({ ...line, bytes }, this.#notes, issues);
    return issues.length === 0 ? value : undefined;
  }

  #finish(): SessionFile {
    const issues = this.#issues;
    const last = this.#lastLine;
    const endsWithNewline = last === null || last.terminated;
    const lineCount = last?.number ?? 0;
    if (this.#notes.bom) issues.unshift(issue(1, "bom", "The file starts with a UTF-8 byte order mark"));
    if (this.#notes.crlf) issues.push(issue(0, "crlf", "Lines end with CRLF instead of LF"));
    if (last && !last.terminated && !issues.some((i) => i.code === "torn-line" && i.line === last.number)) {
      issues.push(issue(last.number, "missing-newline", `The file does not end with a newline (line ${last.number})`));
    }
    const base = { issues, endsWithNewline, lineCount, byteLength: this.#bytes };
    const first = this.#objects[0];
    if (first === undefined || !isHeader(first)) {
      const line = this.#objectLines[0] ?? 0;
      issues.push(
        first === undefined
          ? issue(0, this.#bytes === 0 ? "empty-file" : "not-a-session", this.#bytes === 0 ? "The file is empty" : "The file holds no JSON entries")
          : headerIssue(first, line),
      );
      issues.sort(byLine);
      return { ...base, header: null, entries: [], entryLines: [], version: 0, migrated: false, notSession: true };
    }
    const version = headerVersion(first);
    const { objects, migrated } = migrateSession(this.#objects, String(first.id));
    const header = objects[0] as SessionHeader;
    const entries: SessionEntry[] = [];
    const entryLines: number[] = [];
    const offsets = this.#objectOffsets;
    const entryOffsets: number[] | undefined = offsets && [];
    for (let i = 1; i < objects.length; i++) {
      const line = this.#objectLines[i];
      if (objects[i].type === "session") {
        issues.push(issue(line, "duplicate-header", `Line ${line} is a second session header; it is ignored`));
        continue;
      }
      const keep = this.#keep && !this.#live ? this.#keep : undefined;
      entries.push((keep ? keep(objects[i]) : objects[i]) as unknown as SessionEntry);
      entryLines.push(line);
      entryOffsets?.push(offsets![i]);
    }
    issues.sort(byLine);
    return { ...base, header, entries, entryLines, ...(entryOffsets && { entryOffsets }), version, migrated, notSession: false };
  }
}

function byLine(a: ReadIssue, b: ReadIssue): number {
  return a.line - b.line;
}

/** Reads a whole session from a stream of chunks. */
export async function readSession(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options?: ReadOptions): Promise<SessionFile> {
  const reader = new SessionReader(options);
  for await (const chunk of chunks) reader.push(chunk);
  return reader.end();
}

/** Parses a session held in memory. */
export function parseSession(input: string | Uint8Array): SessionFile {
  const reader = new SessionReader();
  reader.push(typeof input === "string" ? new TextEncoder().encode(input) : input);
  return reader.end();
}
