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
   * memory at once; an older file is migrated whole first. `skimmed`: true for an entry parsed
   * from a skimmed line (see `skim`), whose long strings are cut.
   */
  keep?: (entry: Record<string, unknown>, skimmed?: boolean) => Record<string, unknown>;
  /**
   * With `keep`, for long lines of a current-version file: the line's bytes with what `keep`
   * would drop anyway cut out before parsing (e.g. `skimLine`), or undefined to parse it whole.
   * A skimmed line that does not parse cleanly is parsed again whole.
   */
  skim?: (bytes: Uint8Array) => Uint8Array | undefined;
  /**
   * When `skim` is `skimLine` with `LEAN_KEPT_KEYS` and this many characters: lets a reader on
   * another thread skim the lines the same way (see `pushLine`).
   */
  skimChars?: number;
  /** Note where each entry's line starts (`entryOffsets`), for a reader that reads some again. */
  offsets?: boolean;
}

/** Lines at least this long are offered to `skim`. */
export const SKIM_FROM = 4096;

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

  /**
   * Takes one line split and skimmed elsewhere (lines in order, instead of `push`): `line.bytes`
   * are the line's bytes, or with `skimmed` what `skim` made of them, and `length` the line's
   * length in the file. Returns false, taking nothing, when the skimmed bytes will not do (the
   * reader does not skim this line, or they do not parse cleanly): then give the whole line.
   */
  pushLine(line: RawLine, length: number, skimmed: boolean): boolean {
    let value: Record<string, unknown> | undefined;
    if (skimmed) {
      if (!this.#live || !this.#skim || length < SKIM_FROM) return false;
      value = this.#parseSkimmed(line, line.bytes);
      if (value === undefined) return false;
    }
    this.#bytes += length + (line.terminated ? 1 : 0);
    this.#take(line, value);
    return true;
  }

  #onLine(line: RawLine): void {
    let value: Record<string, unknown> | undefined;
    if (this.#live && this.#skim && line.bytes.length >= SKIM_FROM) {
      const bytes = this.#skim(line.bytes);
      if (bytes !== undefined) value = this.#parseSkimmed(line, bytes);
    }
    this.#take(line, value);
  }

  /** The line (`skimmed` parsed from its skimmed bytes, else parsed here) as the next object. */
  #take(line: RawLine, skimmed: Record<string, unknown> | undefined): void {
    this.#lastLine = line;
    const value = skimmed ?? decodeObjectLine(line, this.#notes, this.#issues);
    if (value === undefined) return;
    let kept = value;
    if (this.#objects.length === 0) {
      this.#live = this.#keep !== undefined && isHeader(value) && headerVersion(value) >= CURRENT_SESSION_VERSION;
    } else if (this.#live && value.type !== "session") kept = this.#keep!(value, skimmed !== undefined);
    this.#objects.push(kept);
    this.#objectLines.push(line.number);
    this.#objectOffsets?.push(line.offset);
  }

  /** The line parsed from its skimmed bytes, or undefined to parse it whole. */
  #parseSkimmed(line: RawLine, bytes: Uint8Array): Record<string, unknown> | undefined {
    const issues: ReadIssue[] = [];
    const value = decodeObjectLine({ ...line, bytes }, this.#notes, issues);
    return issues.length === 0 ? value : undefined;
  }

  #finish(): SessionFile {
    const issues = this.#issues;
    const last = this.#lastLine;
    const endsWithNewline = last === null || last.terminated;
    const lineCount = last?.number ?? 0;
    addFileIssues(issues, this.#notes, last);
    const base = { issues, endsWithNewline, lineCount, byteLength: this.#bytes };
    const first = this.#objects[0];
    if (first === undefined || !isHeader(first)) {
      const line = this.#objectLines[0] ?? 0;
      issues.push(first === undefined ? noObjectIssue(this.#bytes) : headerIssue(first, line));
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

/**
 * The problems of a whole file, added once its lines are read: a byte order mark, CRLF line
 * ends, a last line without a newline (unless it is torn). `last`: the last line read.
 */
export function addFileIssues(issues: ReadIssue[], notes: DecodeNotes, last: Pick<RawLine, "number" | "terminated"> | null): void {
  if (notes.bom) issues.unshift(issue(1, "bom", "The file starts with a UTF-8 byte order mark"));
  if (notes.crlf) issues.push(issue(0, "crlf", "Lines end with CRLF instead of LF"));
  if (last && !last.terminated && !issues.some((i) => i.code === "torn-line" && i.line === last.number)) {
    issues.push(issue(last.number, "missing-newline", `The file does not end with a newline (line ${last.number})`));
  }
}

/** Why a file without a single JSON object is no session: it is empty, or holds none. */
export function noObjectIssue(bytes: number): ReadIssue {
  return issue(0, bytes === 0 ? "empty-file" : "not-a-session", bytes === 0 ? "The file is empty" : "The file holds no JSON entries");
}

/** Issues in line order (a stable sort: one line's issues keep the order they were found in). */
export function byLine(a: ReadIssue, b: ReadIssue): number {
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
