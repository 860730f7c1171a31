/**
 * Which entries of a branch make up the model context. Without a compaction on the path,
 * the whole path; with one, the latest compaction, then what it keeps, then what follows.
 * @module
 */
import type { CompactionEntry, MessageEntry, SessionEntry } from "../format/types.ts";
import { walkToRoot } from "../tree/walk-path.ts";
import { retainedTailOf } from "./entry-messages.ts";

/** An id index over `entries`; later duplicates win. */
export function indexEntries(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return byId;
}

/**
 * The root-to-leaf path. `null` gives an empty path; an unknown or missing leaf id falls
 * back to the last entry. Cycles and missing parents end the walk instead of hanging.
 */
export function buildSessionPath(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  if (leafId === null) return [];
  const index = byId ?? indexEntries(entries);
  const leaf = (leafId ? index.get(leafId) : undefined) ?? entries[entries.length - 1];
  return leaf ? walkToRoot(leaf, index).path : [];
}

function isSystemMessage(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry as MessageEntry).message?.role === "system";
}

/** The context entries of a known path (see `buildContextEntries`). */
export function contextEntriesOfPath(path: readonly SessionEntry[]): SessionEntry[] {
  let at = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i].type === "compaction") {
      at = i;
      break;
    }
  }
  if (at < 0) return [...path];
  const compaction = path[at] as CompactionEntry;
  const result: SessionEntry[] = [compaction];
  if (!retainedTailOf(compaction)) {
    // A checkpoint compaction (with retainedTail) is self-contained; otherwise keep the
    // non-system entries from firstKeptEntryId up to the compaction.
    const first = path.findIndex((entry, i) => i < at && entry.id === compaction.firstKeptEntryId);
    if (first >= 0) {
      for (let i = first; i < at; i++) if (!isSystemMessage(path[i])) result.push(path[i]);
    }
  }
  for (let i = at + 1; i < path.length; i++) result.push(path[i]);
  return result;
}

/**
 * The compaction-aware entry list at `leafId`.
 *
 * @example
 * ```ts
 * buildContextEntries([], null); // []
 * ```
 */
export function buildContextEntries(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  return contextEntriesOfPath(buildSessionPath(entries, leafId, byId));
}
