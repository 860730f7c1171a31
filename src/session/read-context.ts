/**
 * The model context at an entry of a session file, reading as little as possible: one
 * streaming pass for the linking fields, then only the lines the context needs.
 * @module
 */
import type { SessionContext } from "../core/format/types.ts";
import { decodeLine } from "../core/read/decode-line.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { LineSplitter } from "../core/read/line-splitter.ts";
import { readSession } from "../core/read/read-session.ts";
import { type SessionSkeleton, type SkeletonEntry, SkeletonReader } from "../core/read/skeleton-reader.ts";
import { walkToRoot } from "../core/tree/walk-path.ts";
import { projectLazyPath } from "../core/context/lazy-projection.ts";
import { buildSessionContext } from "../core/context/session-projection.ts";
import type { SessionEntry } from "../core/format/types.ts";
import type { FileSystem } from "../io/file-system.ts";
import { NotASessionError, refuseTooDeep } from "./errors.ts";

/** Lines closer than this are read in one range rather than two. */
const MERGE_GAP = 256 * 1024;

/**
 * Parses the lines of `wanted` by streaming their byte ranges (merged where close) through a
 * line splitter: only the wanted lines are decoded, and no range is ever held whole.
 */
async function loadEntries(fs: FileSystem, path: string, wanted: SkeletonEntry[], issues: ReadIssue[], mergeGap: number): Promise<void> {
  const sorted = [...new Set(wanted)].sort((a, b) => a.offset - b.offset);
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    let end = sorted[i].offset + sorted[i].length;
    while (j < sorted.length && sorted[j].offset - end <= mergeGap) {
      end = Math.max(end, sorted[j].offset + sorted[j].length);
      j++;
    }
    const start = sorted[i].offset;
    let next = i;
    const splitter = new LineSplitter((line) => {
      const item = sorted[next];
      if (next >= j || start + line.offset !== item.offset) return;
      next++;
      // Phase 1 saw this line whole, so it is terminated whatever the range's end says.
      const raw = { bytes: line.bytes, number: item.line, offset: item.offset, terminated: true };
      const decoded = decodeLine(raw, { bom: false, crlf: false }, issues);
      if (decoded.kind === "value") item.entry = decoded.value as SessionEntry;
      else if (decoded.kind === "error") issues.push(decoded.issue);
    });
    for await (const chunk of fs.read(path, { start, end, reuseBuffer: true })) splitter.push(chunk);
    splitter.end();
    i = j;
  }
}

/** The first pass: header and linking fields of every entry. */
export async function readSkeleton(fs: FileSystem, path: string): Promise<SessionSkeleton> {
  const reader = new SkeletonReader();
  for await (const chunk of fs.read(path, { reuseBuffer: true })) reader.push(chunk);
  return reader.end();
}

/**
 * The context pi would build at `leafId` (default: the last entry), deep-equal to
 * `buildSessionContext` on the fully read file.
 *
 * @example
 * ```ts
 * // const { context } = await readContextFromFile(nodeFileSystem, "session.jsonl");
 * ```
 */
export async function readContextFromFile(
  fs: FileSystem,
  path: string,
  options: {
    leafId?: string | null;
    /** Wanted lines closer than this many bytes are read as one range (tests set 0). */
    mergeGap?: number;
  } = {},
): Promise<{ context: SessionContext; issues: ReadIssue[] }> {
  const skeleton = await readSkeleton(fs, path);
  refuseTooDeep(path, skeleton.issues);
  if (skeleton.notSession) throw new NotASessionError(path, skeleton.issues);
  if (skeleton.version < 3) {
    // Old files need ids assigned across the whole file: read them in full.
    const file = await readSession(fs.read(path, { reuseBuffer: true }));
    refuseTooDeep(path, file.issues);
    return { context: buildSessionContext(file.entries, options.leafId), issues: file.issues };
  }
  const issues = skeleton.issues;
  const byId = new Map<string, SkeletonEntry>();
  for (const entry of skeleton.entries) byId.set(entry.id, entry);
  const { leafId } = options;
  const leaf = leafId === null ? undefined : (leafId ? byId.get(leafId) : undefined) ?? skeleton.entries.at(-1);
  const path_ = leaf ? (walkToRoot(leaf as never, byId as never).path as unknown as SkeletonEntry[]) : [];
  const projection = await projectLazyPath(path_, (wanted) => loadEntries(fs, path, wanted, issues, options.mergeGap ?? MERGE_GAP));
  const { messages, thinkingLevel, model } = projection;
  return { context: { messages, thinkingLevel, model }, issues };
}
