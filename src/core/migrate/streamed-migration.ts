/**
 * An older session migrated line by line, never held whole: the verdict, issues and migrated
 * lines that reading it whole (`SessionReader`) and writing its migrated objects (one
 * `JSON.stringify` a line) give, a line at a time. `migrate` runs it twice over a file: once to
 * decide, once to write. A line that is what JSON.stringify writes (`canonicalLine`) is not
 * parsed: what the steps read of it (type, id, parentId, a message's role) goes through them as
 * a small object, and the members they set are spliced into its bytes, so a gigabyte migrates
 * without a gigabyte of garbage strings.
 * @module
 */
import { canonicalLine, type CanonicalMembers, type LineSink, spliceLine, type ValueSpan } from "../read/canonical-line.ts";
import { type DecodeNotes, decodeObjectLine, headerIssue, isHeader } from "../read/decode-line.ts";
import { issue, type ReadIssue } from "../read/issue.ts";
import { LineSplitter, type RawLine } from "../read/line-splitter.ts";
import { addFileIssues, byLine, noObjectIssue } from "../read/read-session.ts";
import { headerVersion, objectMigration } from "./migrate-session.ts";
import type { FileObject, ObjectStep } from "./migration.ts";

/** Where migrated lines go: text, or bytes valid only during the call. */
export type { LineSink };

/** What a whole read would say of the file. */
export interface MigrationVerdict {
  /** The header as read (before migration); null when the file is no session. */
  header: FileObject | null;
  /** The version on disk (a missing version is 1); 0 when not a session. */
  version: number;
  /** True when migrating changes the file. */
  migrated: boolean;
  notSession: boolean;
  /** What a whole read reports, in line order. */
  issues: ReadIssue[];
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const ROLE = encoder.encode('{"role":');

function valueAt(bytes: Uint8Array, span: ValueSpan): unknown {
  return JSON.parse(decoder.decode(bytes.subarray(span.start, span.end)));
}

/** A message's role when its object starts with it (as pi writes it), else undefined. */
function leadingRole(bytes: Uint8Array, span: ValueSpan): unknown {
  for (let k = 0; k < ROLE.length; k++) if (bytes[span.start + k] !== ROLE[k]) return undefined;
  const start = span.start + ROLE.length;
  if (bytes[start] !== 0x22) return undefined;
  const end = bytes.indexOf(0x22, start + 1);
  // The canonical line has no backslash in a role it can be sure of; any other is parsed.
  const role = end < 0 ? undefined : decoder.decode(bytes.subarray(start + 1, end));
  return role === undefined || role.includes("\\") ? undefined : role;
}

function duplicateHeader(line: number): ReadIssue {
  return issue(line, "duplicate-header", `Line ${line} is a second session header; it is ignored`);
}

/**
 * @example
 * ```ts
 * const lines: string[] = [];
 * const migration = new StreamedMigration({ add: (t) => lines.push(t), addBytes: (b) => lines.push(new TextDecoder().decode(b)) });
 * migration.push(new TextEncoder().encode('{"type":"session","id":"s","timestamp":"t","cwd":"/"}\n{"type":"message","timestamp":"t","message":{"role":"user","content":"hi"}}\n'));
 * migration.end().version; // 1; lines.join("") is the file as version 3
 * ```
 */
export class StreamedMigration {
  readonly #out: LineSink | undefined;
  #splitter = new LineSplitter((line) => this.#onLine(line));
  #notes: DecodeNotes = { bom: false, crlf: false };
  #issues: ReadIssue[] = [];
  #duplicates: ReadIssue[] = [];
  #last: RawLine | null = null;
  #bytes = 0;
  /** Objects read so far: the position of the next one. */
  #position = 0;
  #header: FileObject | null = null;
  #firstIssue: ReadIssue | null = null;
  #step: ObjectStep | null = null;

  /** `out`: where the migrated lines go; none for a pass that only decides. */
  constructor(out?: LineSink) {
    this.#out = out;
  }

  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    this.#splitter.push(chunk);
  }

  end(): MigrationVerdict {
    this.#splitter.end();
    const issues = this.#issues;
    addFileIssues(issues, this.#notes, this.#last);
    const header = this.#header;
    if (header === null) {
      issues.push(this.#firstIssue ?? noObjectIssue(this.#bytes));
      issues.sort(byLine);
      return { header: null, version: 0, migrated: false, notSession: true, issues };
    }
    issues.push(...this.#duplicates);
    issues.sort(byLine);
    return { header, version: headerVersion(header), migrated: this.#step !== null, notSession: false, issues };
  }

  #onLine(line: RawLine): void {
    this.#last = line;
    if (this.#header !== null) {
      const members = canonicalLine(line.bytes);
      if (members !== null && this.#spliced(line, members)) return;
    }
    const value = decodeObjectLine(line, this.#notes, this.#issues);
    if (value === undefined) return;
    const position = this.#position++;
    if (position === 0) {
      if (!isHeader(value)) {
        this.#firstIssue = headerIssue(value, line.number);
        return;
      }
      this.#header = value;
      this.#step = objectMigration(headerVersion(value), String(value.id));
    } else if (this.#header === null) return;
    // A pass that only decides needs no migrated objects (a step never changes a type).
    const migrated = this.#step === null || this.#out === undefined ? value : this.#step(value, position);
    if (position > 0 && migrated.type === "session") {
      this.#duplicates.push(duplicateHeader(line.number));
      return;
    }
    this.#out?.add(JSON.stringify(migrated) + "\n");
  }

  /**
   * A line JSON.stringify wrote, after the header: counted, and migrated by splicing (see the
   * module comment). False, having done nothing, when its migration may change more than
   * members the steps set (a compaction's line index, a message whose role is not plain and first).
   */
  #spliced(line: RawLine, members: CanonicalMembers): boolean {
    const bytes = line.bytes;
    const type = members.type === undefined ? undefined : valueAt(bytes, members.type);
    const out = this.#out;
    const step = out === undefined ? null : this.#step;
    const lean: FileObject = {};
    if (step !== null) {
      if (members.firstKeptEntryIndex !== undefined) return false;
      if (members.type !== undefined) lean.type = type;
      if (members.id !== undefined) lean.id = valueAt(bytes, members.id);
      if (members.parentId !== undefined) lean.parentId = valueAt(bytes, members.parentId);
      if (members.message !== undefined) {
        const role = leadingRole(bytes, members.message);
        if (role === undefined || role === "hookMessage") return false;
        lean.message = { role };
      }
    }
    const position = this.#position++;
    const migrated = step === null ? lean : step(lean, position);
    if (type === "session") {
      this.#duplicates.push(duplicateHeader(line.number));
      return true;
    }
    if (out === undefined) return true;
    const changed: [ValueSpan, string][] = [];
    let added = "";
    for (const key of Object.keys(lean)) if (!(key in migrated)) throw new Error(`A migration step dropped "${key}" from a line it was to splice`);
    for (const [key, value] of Object.entries(migrated)) {
      if (key in lean && value === lean[key]) continue;
      if (typeof value === "object" && value !== null) throw new Error(`A migration step changed "${key}" of a line it was to splice`);
      const span = members[key as keyof CanonicalMembers];
      if (key in lean && span !== undefined) changed.push([span, JSON.stringify(value)]);
      else added += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    }
    // Members a step adds come last, in the order it added them (`{ ...object, id, parentId }`).
    spliceLine(out, bytes, changed, added);
    return true;
  }
}
