/**
 * A session file opened by its skeleton (issue 18: `open` of a 90 MB session at half pi's time
 * and memory): one streaming pass keeps the header, every entry's linking fields and byte range,
 * and the labels and name; an entry's line is parsed when something asks for it, and kept, so
 * the same object comes back every time (as pi's would). Only a clean current-format file is
 * opened this way; anything else (an older version, a BOM, any line the reader would report)
 * takes the full read, which settles such cases. The lines are read again by the path: a file
 * replaced since it was opened (not merely appended to) is noticed and refused.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { decodeObjectLine } from "../core/read/decode-line.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { SessionReader } from "../core/read/read-session.ts";
import { type SkeletonEntry, SkeletonReader } from "../core/read/skeleton-reader.ts";
import { read, stat, type Steps } from "../io/io-steps.ts";
import type { SyncFileSystem } from "../io/sync-file-system.ts";
import type { ResolvedLabel } from "../session/entry-index.ts";
import { SessionError } from "../session/errors.ts";
import type { FileEnd } from "../session/session-writer.ts";

const READ_CHUNK = 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * The buffer the reads below go through (compat is synchronous: each read's bytes are used up
 * before the next). A fresh buffer per read was garbage the collector freed late: 89 MB of it
 * for the skeleton of the 90 MB session, and the peak moved with the collector's timing.
 */
let scratch: Uint8Array | undefined;
const buffer = () => (scratch ??= new Uint8Array(READ_CHUNK));

/** The file changed on disk (other than by appends) between `open` and a read of its entries. */
export class SessionChangedError extends SessionError {
  constructor(path: string, line: number) {
    super(
      "session-changed",
      `Cannot read line ${line} of ${path}: the file changed on disk since it was opened`,
      1,
      "Open the session again to see the file as it is now",
    );
  }
}

/** A clean current-format session known by its skeleton; entries parsed on demand. */
export class LazySession {
  readonly path: string;
  readonly header: SessionHeader;
  /** File order. */
  readonly entries: SkeletonEntry[];
  /** Later duplicates win, as in pi. */
  readonly byId: Map<string, SkeletonEntry> = new Map();
  readonly labels: Map<string, ResolvedLabel> = new Map();
  readonly name: string | undefined;
  /** Where the file ended when it was read. */
  readonly end: FileEnd;
  leafId: string | null;
  #fs: SyncFileSystem;

  constructor(fs: SyncFileSystem, path: string, header: SessionHeader, entries: SkeletonEntry[], end: FileEnd) {
    this.#fs = fs;
    this.path = path;
    this.header = header;
    this.entries = entries;
    this.end = end;
    let name: string | undefined;
    for (const entry of entries) {
      this.byId.set(entry.id, entry);
      if (entry.type === "label") {
        const { targetId, label } = this.entry(entry) as { targetId: string; label?: unknown };
        if (label) this.labels.set(targetId, { label: label as string, timestamp: entry.timestamp });
        else this.labels.delete(targetId);
      } else if (entry.type === "session_info") {
        const raw = (this.entry(entry) as { name?: unknown }).name;
        name = typeof raw === "string" ? raw.trim() || undefined : undefined;
      }
    }
    this.name = name;
    this.leafId = entries.at(-1)?.id ?? null;
  }

  /** The entry of `place`, parsed now if it was not yet. */
  entry(place: SkeletonEntry): SessionEntry {
    if (place.entry === undefined) this.parse([place]);
    return place.entry!;
  }

  /** Parses the lines of `places` that are not parsed yet (one read per line). */
  parse(places: readonly SkeletonEntry[]): void {
    const issues: ReadIssue[] = [];
    for (const place of places) {
      if (place.entry !== undefined) continue;
      const bytes = this.#fs.read(this.path, place.offset, place.offset + place.length, buffer());
      const value = bytes.length === place.length
        ? decodeObjectLine({ bytes, number: place.line, offset: place.offset, terminated: true }, { bom: false, crlf: false }, issues)
        : undefined;
      if (value === undefined || value.id !== place.id || value.type !== place.type) throw new SessionChangedError(this.path, place.line);
      place.entry = value as unknown as SessionEntry;
    }
  }

  /**
   * Every entry, read in full from the bytes the file had when it was opened; the entries parsed
   * before are the same objects.
   */
  loadAll(): SessionEntry[] {
    const reader = new SessionReader();
    for (let at = 0; at < this.end.size; at += READ_CHUNK) {
      const chunk = this.#fs.read(this.path, at, Math.min(at + READ_CHUNK, this.end.size), buffer());
      if (chunk.length === 0) break;
      reader.push(chunk);
    }
    const file = reader.end();
    const all = file.entries;
    if (all.length !== this.entries.length) throw new SessionChangedError(this.path, file.lineCount);
    for (let i = 0; i < all.length; i++) {
      const place = this.entries[i];
      if (all[i].id !== place.id || file.entryLines[i] !== place.line) throw new SessionChangedError(this.path, place.line);
      if (place.entry !== undefined) all[i] = place.entry;
    }
    return all;
  }
}

/**
 * Reads the skeleton of `path` as `open` needs it; null when the file is missing, empty or not
 * clean enough to open lazily (the caller then takes the full read, which says why).
 */
export function* readLazySession(fs: SyncFileSystem, path: string): Steps<LazySession | null> {
  const found = yield* stat(path);
  if (found === null || !found.isFile || found.size === 0) return null;
  const reader = new SkeletonReader();
  let size = 0;
  let first: Uint8Array | undefined;
  let last = -1;
  for (;;) {
    const chunk = yield* read(path, size, size + READ_CHUNK, buffer());
    if (chunk.length > 0) {
      first ??= chunk.slice(0, 3);
      last = chunk[chunk.length - 1];
      size += chunk.length;
      reader.push(chunk);
    }
    if (chunk.length < READ_CHUNK) break;
  }
  const skeleton = reader.end();
  const bom = first !== undefined && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf;
  if (skeleton.notSession || skeleton.header === null || skeleton.version < 3 || skeleton.issues.length > 0 || bom || last !== NEWLINE) return null;
  if (skeleton.entries.some((entry) => typeof entry.id !== "string" || typeof entry.type !== "string")) return null;
  return new LazySession(fs, path, skeleton.header, skeleton.entries, { size, newline: true });
}
