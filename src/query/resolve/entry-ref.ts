/**
 * Turns an entry reference into an entry id: a full id, a unique id prefix, or
 * `label:NAME` (the entry that label is on now).
 * @module
 */
import type { SessionTree } from "../../core/tree/session-tree.ts";
import { EntryNotFoundError } from "../../session/errors.ts";

/**
 * @example
 * ```ts
 * // resolveEntryRef(tree, "label:checkpoint", path) -> the labelled entry's id
 * ```
 */
export function resolveEntryRef(tree: SessionTree, ref: string, path: string): string {
  if (ref.startsWith("label:")) {
    const name = ref.slice("label:".length);
    const matches = [...tree.labels].filter(([, value]) => value.label === name).map(([id]) => id);
    if (matches.length === 1) return matches[0];
    throw new EntryNotFoundError(ref, path, matches);
  }
  if (tree.byId.has(ref)) return ref;
  const matches = [...tree.byId.keys()].filter((id) => id.startsWith(ref));
  if (matches.length === 1) return matches[0];
  throw new EntryNotFoundError(ref, path, matches);
}
