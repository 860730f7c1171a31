/**
 * Appending one entry to a session file of any size while holding only what an append needs:
 * the ids (a new id must be fresh), the leaf (the last entry: pi's leaf on open) and where the
 * file ends, from one streaming pass over the linking fields (`SkeletonReader`). The entries
 * themselves are never held; labels, when asked for, come from a second pass over the label
 * lines alone. The line goes out through `SessionWriter`, under the lock, after taking in what
 * others appended, exactly as `SessionManager.open` then an append would write it.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { decodeLine } from "../core/read/decode-line.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { LineSplitter } from "../core/read/line-splitter.ts";
import { type SkeletonEntry, SkeletonReader } from "../core/read/skeleton-reader.ts";
import type { FileSystem } from "../io/file-system.ts";
import { runSteps } from "../io/io-steps.ts";
import type { EntryBase } from "./entry-builders.ts";
import { NotASessionError, refuseTooDeep } from "./errors.ts";
import { uniqueEntryId } from "./ids.ts";
import type { ResolvedLabel } from "./entry-index.ts";
import { type FileEnd, SessionWriter } from "./session-writer.ts";

const NEWLINE = 0x0a;

/** A version 3 session file known by its skeleton. */
export interface LeanSession {
  path: string;
  header: SessionHeader;
  /** Every entry's id. */
  ids: Set<string>;
  /** The last entry's id, or null for a session without entries. */
  leafId: string | null;
  /** The label entries' places, in file order (read by `readLeanLabels`). */
  labelEntries: SkeletonEntry[];
  end: FileEnd;
}

/**
 * The skeleton of the session at `path`, or null when it is an older version (whose first
 * append rewrites it: that takes the full read). Throws `NotASessionError` as opening does.
 */
export async function readLeanSession(fs: FileSystem, path: string): Promise<LeanSession | null> {
  const reader = new SkeletonReader();
  let size = 0;
  let last = -1;
  for await (const chunk of fs.read(path, { reuseBuffer: true })) {
    if (chunk.length === 0) continue;
    size += chunk.length;
    last = chunk[chunk.length - 1];
    reader.push(chunk);
  }
  const skeleton = reader.end();
  refuseTooDeep(path, skeleton.issues);
  if (skeleton.notSession || skeleton.header === null) throw new NotASessionError(path, skeleton.issues);
  if (skeleton.version < 3) return null;
  const ids = new Set<string>();
  const labelEntries: SkeletonEntry[] = [];
  for (const entry of skeleton.entries) {
    ids.add(entry.id);
    if (entry.type === "label") labelEntries.push({ ...entry, entry: undefined });
  }
  return {
    path,
    header: skeleton.header,
    ids,
    leafId: skeleton.entries.at(-1)?.id ?? null,
    labelEntries,
    end: { size, newline: size === 0 || last === NEWLINE },
  };
}

/** The resolved labels (pi's rule: the latest label entry for a target decides; an empty one clears), reading the label lines only. */
export async function readLeanLabels(fs: FileSystem, session: LeanSession): Promise<Map<string, ResolvedLabel>> {
  const labels = new Map<string, ResolvedLabel>();
  const issues: ReadIssue[] = [];
  for (const place of session.labelEntries) {
    const splitter = new LineSplitter((line) => {
      if (line.offset !== 0) return;
      const decoded = decodeLine({ bytes: line.bytes, number: place.line, offset: place.offset, terminated: true }, { bom: false, crlf: false }, issues);
      if (decoded.kind !== "value") return;
      const { targetId, label } = decoded.value as { targetId?: unknown; label?: unknown };
      if (typeof targetId !== "string") return;
      if (typeof label === "string" && label) labels.set(targetId, { label, timestamp: place.timestamp });
      else labels.delete(targetId);
    });
    for await (const chunk of fs.read(session.path, { start: place.offset, end: place.offset + place.length })) splitter.push(chunk);
    splitter.end();
  }
  return labels;
}

/** Where new ids and times come from. */
export interface LeanAppendDeps {
  clock: () => Date;
  newId: () => string;
}

/**
 * Appends the entry `make` builds at the leaf (after the entries others appended since the read,
 * as an opened manager follows them) and returns it. `session` is updated to include them and it.
 */
export async function appendLean<T extends SessionEntry>(fs: FileSystem, session: LeanSession, make: (base: EntryBase) => T, deps: LeanAppendDeps): Promise<T> {
  const writer = new SessionWriter(session.path, { kind: "written", end: session.end });
  let made: T | undefined;
  let theirs = new Set<string>();
  await runSteps(fs, writer.persist((others) => {
    theirs = new Set(others.map((other) => other.id));
    const taken = { has: (id: string) => session.ids.has(id) || theirs.has(id) };
    made = make({ id: uniqueEntryId(taken, deps.newId), parentId: others.at(-1)?.id ?? session.leafId, timestamp: deps.clock().toISOString() });
    return { header: session.header, entries: [], hasConversation: true, entry: made };
  }));
  // Known only once the write is done: a failed write leaves the session as it was.
  for (const id of theirs) session.ids.add(id);
  session.ids.add(made!.id);
  session.leafId = made!.id;
  return made!;
}
