/**
 * The model context of a path whose entries are known only by their linking fields.
 * It asks its caller to parse just the lines the context needs: the latest compaction,
 * the kept range and what follows it, and the entries that settle model and thinking level.
 * @module
 */
import type { CompactionEntry, MessageEntry, SessionEntry, SessionProjection } from "../format/types.ts";
import type { SkeletonEntry } from "../read/skeleton-reader.ts";
import { retainedTailOf } from "./entry-messages.ts";
import { projectPath } from "./session-projection.ts";

/** Parses the given entries' lines and sets their `entry` fields. */
export type EntryLoader = (entries: SkeletonEntry[]) => Promise<void>;

function lastIndexOfType(path: readonly SkeletonEntry[], type: string, before = path.length): number {
  for (let i = before - 1; i >= 0; i--) if (path[i].type === type) return i;
  return -1;
}

/** The entries not parsed yet, to be asked for (none: nothing is asked). */
function missing(entries: SkeletonEntry[]): SkeletonEntry[] {
  return entries.filter((e) => !e.entry);
}

/**
 * The projection as steps: each `yield` asks for some entries to be parsed (their `entry` set)
 * before it goes on; `projectLazyPath` and `projectLazyPathSync` answer them.
 */
function* lazyProjection(path: readonly SkeletonEntry[]): Generator<SkeletonEntry[], SessionProjection, void> {
  const compactionAt = lastIndexOfType(path, "compaction");
  const thinkingAt = lastIndexOfType(path, "thinking_level_change");
  const modelAt = lastIndexOfType(path, "model_change");
  const first: SkeletonEntry[] = path.slice(Math.max(compactionAt, 0));
  if (thinkingAt >= 0) first.push(path[thinkingAt]);
  if (modelAt >= 0) first.push(path[modelAt]);
  if (missing(first).length > 0) yield missing(first);

  if (compactionAt >= 0) {
    const compaction = path[compactionAt].entry as CompactionEntry | undefined;
    if (compaction && !retainedTailOf(compaction)) {
      const keptFrom = path.findIndex((e, i) => i < compactionAt && e.id === compaction.firstKeptEntryId);
      const kept = keptFrom >= 0 ? missing(path.slice(keptFrom, compactionAt)) : [];
      if (kept.length > 0) yield kept;
    }
  }

  // The model is the latest model_change or assistant message on the path: walk back over
  // messages after the last model_change until an assistant settles it.
  for (let i = path.length - 1; i > modelAt; i--) {
    const item = path[i];
    if (item.type !== "message") continue;
    if (!item.entry) yield [item];
    if ((item.entry as MessageEntry | undefined)?.message?.role === "assistant") break;
  }

  const entries = path.map((e): SessionEntry => e.entry ?? { type: e.type, id: e.id, parentId: e.parentId, timestamp: e.timestamp } as SessionEntry);
  return projectPath(entries);
}

/**
 * Same result as `buildSessionProjection` on the fully parsed path, parsing only what matters.
 *
 * @example
 * ```ts
 * await projectLazyPath([], async () => {}); // { entries: [], messages: [], thinkingLevel: "off", model: null }
 * ```
 */
export async function projectLazyPath(path: readonly SkeletonEntry[], load: EntryLoader): Promise<SessionProjection> {
  const steps = lazyProjection(path);
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done) return next.value;
    await load(next.value);
  }
}

/** `projectLazyPath` with a loader that parses at once (a synchronous reader). */
export function projectLazyPathSync(path: readonly SkeletonEntry[], load: (entries: SkeletonEntry[]) => void): SessionProjection {
  const steps = lazyProjection(path);
  for (let next = steps.next(); ; next = steps.next()) {
    if (next.done) return next.value;
    load(next.value);
  }
}
