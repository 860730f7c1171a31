/**
 * A light first pass over a session: the header in full, and for every other line only
 * its linking fields and where its bytes are. Callers parse the few lines they need later.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../format/types.ts";
import { headerVersion } from "../migrate/migrate-session.ts";
import { type DecodeNotes, decodeObjectLine, headerIssue, isHeader, tooDeepIssue } from "./decode-line.ts";
import { issue, type ReadIssue } from "./issue.ts";
import { nestsDeeperThan } from "./json-depth.ts";
import { LineSplitter, type RawLine } from "./line-splitter.ts";
import { scanEntryKeys } from "./scan-keys.ts";

/** One entry known by its linking fields; `entry` is filled once its line is parsed. */
export interface SkeletonEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  line: number;
  offset: number;
  length: number;
  entry?: SessionEntry;
}

export interface SessionSkeleton {
  header: SessionHeader | null;
  entries: SkeletonEntry[];
  issues: ReadIssue[];
  version: number;
  notSession: boolean;
}

/**
 * @example
 * ```ts
 * const reader = new SkeletonReader();
 * reader.push(new TextEncoder().encode('{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}\n'));
 * reader.end().header?.id; // "s"
 * ```
 */
export class SkeletonReader {
  #splitter = new LineSplitter((line) => this.#onLine(line));
  #notes: DecodeNotes = { bom: false, crlf: false };
  #issues: ReadIssue[] = [];
  #header: SessionHeader | null = null;
  #headerIssue: ReadIssue | null = null;
  #sawObject = false;
  #entries: SkeletonEntry[] = [];
  #bytes = 0;

  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    this.#splitter.push(chunk);
  }

  end(): SessionSkeleton {
    this.#splitter.end();
    const header = this.#header;
    if (!header) {
      // Said as a full read says it: an empty file, a file without JSON objects, or its first object.
      this.#issues.push(
        this.#headerIssue ??
          (this.#bytes === 0 ? issue(0, "empty-file", "The file is empty") : issue(0, "not-a-session", "The file holds no JSON entries")),
      );
      return { header: null, entries: [], issues: this.#issues, version: 0, notSession: true };
    }
    const version = headerVersion(header);
    return { header, entries: this.#entries, issues: this.#issues, version, notSession: false };
  }

  #onLine(line: RawLine): void {
    if (this.#sawObject && this.#header === null) return;
    // Checked before the key scan, which would find a deep line's linking fields all the same.
    if (nestsDeeperThan(line.bytes)) {
      this.#issues.push(tooDeepIssue(line.number));
      return;
    }
    const first = !this.#sawObject;
    const keys = first || line.number === 1 ? null : scanEntryKeys(line.bytes);
    if (keys && typeof keys.type === "string") {
      this.#sawObject = true;
      if (keys.type === "session") {
        this.#issues.push(issue(line.number, "duplicate-header", `Line ${line.number} is a second session header; it is ignored`));
        return;
      }
      this.#add(line, keys.type, keys.id, keys.parentId, keys.timestamp);
      return;
    }
    const value = decodeObjectLine(line, this.#notes, this.#issues);
    if (value === undefined) return;
    this.#sawObject = true;
    if (first) {
      // Any other first object is named as a full read names it (not a header, or a bad one).
      if (isHeader(value)) this.#header = value as SessionHeader;
      else this.#headerIssue = headerIssue(value, line.number);
      return;
    }
    if (value.type === "session") {
      this.#issues.push(issue(line.number, "duplicate-header", `Line ${line.number} is a second session header; it is ignored`));
      return;
    }
    const added = this.#add(line, value.type, value.id, value.parentId, value.timestamp);
    added.entry = value as unknown as SessionEntry;
  }

  #add(line: RawLine, type: unknown, id: unknown, parentId: unknown, timestamp: unknown): SkeletonEntry {
    const entry: SkeletonEntry = {
      type: type as string,
      id: id as string,
      parentId: parentId as string | null,
      timestamp: timestamp as string,
      line: line.number,
      offset: line.offset,
      length: line.bytes.length,
    };
    this.#entries.push(entry);
    return entry;
  }
}
