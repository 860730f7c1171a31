/**
 * New sessions made from existing ones, as pure functions: a branched session (pi 1.6's
 * `createBranchedSession`: one path, labels moved to the end) and a fork (every entry of a
 * source, already migrated, under a new header).
 * @module
 */
import type { CompactionEntry, SessionEntry, SessionHeader } from "../core/format/types.ts";
import { labelEntry, sessionHeader } from "./entry-builders.ts";
import type { ResolvedLabel } from "./entry-index.ts";
import { uniqueEntryId } from "./ids.ts";

/**
 * The new session's entries for `path` (root first):
 * - label entries are dropped and every kept entry is re-parented onto the previous kept one
 *   (the first onto null), ids unchanged;
 * - a compaction whose `firstKeptEntryId` named a dropped label now names the next kept entry;
 * - every resolved label (in `labels` order) whose target is kept comes back as a fresh label
 *   entry with a new id and the original label's timestamp, chained after the path.
 *
 * The last re-emitted label, or else the last path entry, is the new leaf.
 *
 * @example
 * ```ts
 * const path = [
 *   { type: "custom", customType: "x", id: "a", parentId: null, timestamp: "t0" },
 *   { type: "label", id: "l", parentId: "a", timestamp: "t1", targetId: "a", label: "start" },
 *   { type: "custom", customType: "x", id: "b", parentId: "l", timestamp: "t2" },
 * ];
 * const labels = new Map([["a", { label: "start", timestamp: "t1" }]]);
 * branchedEntries(path as never, labels, () => "n1").map((e) => [e.id, e.parentId]);
 * // [["a", null], ["b", "a"], ["n1", "b"]]
 * ```
 */
export function branchedEntries(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
  newId: () => string,
): SessionEntry[] {
  const branch = new BranchBuilder();
  const kept: SessionEntry[] = [];
  for (const entry of path) {
    const out = branch.push(entry);
    if (out !== undefined) kept.push(out);
  }
  return [...kept, ...branch.labels(labels, newId)];
}

/**
 * `branchedEntries` one path entry at a time, root first, so a path of a million entries is
 * written without holding it: `push` gives each kept entry, re-chained, as soon as it comes;
 * `labels` then gives the re-emitted labels.
 */
export class BranchBuilder {
  #nextKeptAfterLabel = new Map<string, string>();
  #droppedLabels: string[] = [];
  #taken = new Set<string>();
  #parentId: string | null = null;

  /** The entry as the new session holds it, or undefined for a label (dropped). */
  push(entry: SessionEntry): SessionEntry | undefined {
    const firstKept = entry.type === "compaction" ? (entry as CompactionEntry).firstKeptEntryId : undefined;
    const link = this.link(entry.type, entry.id, firstKept);
    if (link === undefined) return undefined;
    if (link.firstKeptEntryId === undefined) return { ...entry, parentId: link.parentId };
    return { ...entry, parentId: link.parentId, firstKeptEntryId: link.firstKeptEntryId } as CompactionEntry;
  }

  /**
   * `push` told by an entry's type, id and (of a compaction) `firstKeptEntryId` alone, for a
   * writer that changes the entry's line itself: undefined for a label (dropped), else its new
   * `parentId`, and the id its `firstKeptEntryId` must name when that named a dropped label.
   */
  link(type: string, id: string, firstKeptEntryId: string | undefined): { parentId: string | null; firstKeptEntryId?: string } | undefined {
    if (type === "label") {
      this.#droppedLabels.push(id);
      return undefined;
    }
    for (const dropped of this.#droppedLabels) this.#nextKeptAfterLabel.set(dropped, id);
    this.#droppedLabels = [];
    const moved = type === "compaction" && firstKeptEntryId !== undefined ? this.#nextKeptAfterLabel.get(firstKeptEntryId) : undefined;
    const parentId = this.#parentId;
    this.#parentId = id;
    this.#taken.add(id);
    return moved === undefined ? { parentId } : { parentId, firstKeptEntryId: moved };
  }

  /** Fresh label entries for the resolved labels whose target was kept, chained after the path. */
  labels(labels: ReadonlyMap<string, ResolvedLabel>, newId: () => string): SessionEntry[] {
    const reemitted: SessionEntry[] = [];
    for (const [targetId, { label, timestamp }] of labels) {
      if (!this.#taken.has(targetId)) continue;
      const id = uniqueEntryId(this.#taken, newId);
      this.#taken.add(id);
      reemitted.push(labelEntry({ id, parentId: this.#parentId, timestamp }, targetId, label));
      this.#parentId = id;
    }
    return reemitted;
  }
}

/** What a new session is made of. */
export interface NewSessionParts {
  header: SessionHeader;
  entries: SessionEntry[];
}

/** Identity of a new session: its id, creation time (ISO) and cwd. */
export interface NewSessionIdentity {
  sessionId: string;
  timestamp: string;
  cwd: string;
}

/** Header and entries of a session branched from `path`; `parentSession` is the previous file, if any. */
export function branchedSession(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
  newId: () => string,
  identity: NewSessionIdentity & { parentSession?: string },
): NewSessionParts {
  return {
    header: sessionHeader(identity.sessionId, identity.timestamp, identity.cwd, identity.parentSession),
    entries: branchedEntries(path, labels, newId),
  };
}

/**
 * A fork of a whole session (pi's `forkFrom`): every entry, all branches and labels, ids kept,
 * under a new header whose `parentSession` is the source file. `entries` must already be
 * migrated to the current format (pi copies old entries as they are and so writes broken files).
 */
export function forkedSession(entries: readonly SessionEntry[], identity: NewSessionIdentity & { sourcePath: string }): NewSessionParts {
  return {
    header: sessionHeader(identity.sessionId, identity.timestamp, identity.cwd, identity.sourcePath),
    entries: [...entries],
  };
}
