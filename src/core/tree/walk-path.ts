/**
 * The one parent walk everything uses: leaf up to its root, then reversed. A cycle, a
 * self-parent or a missing parent stops the walk and is reported; pi loops forever there.
 * @module
 */
import type { SessionEntry } from "../format/types.ts";

/** Why a walk stopped before reaching an entry whose `parentId` is null. */
export type WalkStop =
  | { kind: "cycle"; entryId: string; parentId: string }
  | { kind: "missing-parent"; entryId: string; parentId: string };

export interface WalkResult {
  /** Root first, leaf last. */
  path: SessionEntry[];
  stop?: WalkStop;
}

/**
 * Walks from `leaf` to its root through `byId`.
 *
 * @example
 * ```ts
 * const a = { type: "custom", id: "a", parentId: "b", timestamp: "" };
 * const b = { type: "custom", id: "b", parentId: "a", timestamp: "" };
 * walkToRoot(a as never, new Map([["a", a], ["b", b]]) as never).stop?.kind; // "cycle"
 * ```
 */
export function walkToRoot(leaf: SessionEntry, byId: ReadonlyMap<string, SessionEntry>): WalkResult {
  const path: SessionEntry[] = [];
  const seen = new Set<SessionEntry>();
  let current: SessionEntry | undefined = leaf;
  let stop: WalkStop | undefined;
  while (current) {
    seen.add(current);
    path.push(current);
    const parentId: unknown = current.parentId;
    if (parentId === null || parentId === undefined || parentId === "") break;
    const parent = byId.get(parentId as string);
    if (!parent) {
      stop = { kind: "missing-parent", entryId: current.id, parentId: String(parentId) };
      break;
    }
    if (seen.has(parent)) {
      stop = { kind: "cycle", entryId: current.id, parentId: parent.id };
      break;
    }
    current = parent;
  }
  path.reverse();
  return stop ? { path, stop } : { path };
}
