/**
 * Turns an entry reference into an entry id: a full id, a unique id prefix, or
 * `label:NAME` (the entry that label is on now).
 * @module
 */
import { EntryNotFoundError } from "../../session/errors.ts";

/** What a reference is resolved against: a `SessionTree`, or anything with its ids and resolved labels. */
export interface EntryRefScope {
  labels: ReadonlyMap<string, { label: string }>;
  byId: { has(id: string): boolean; keys(): Iterable<string> };
}

/**
 * @example
 * ```ts
 * // resolveEntryRef(tree, "label:checkpoint", path) -> the labelled entry's id
 * ```
 */
export function resolveEntryRef(tree: EntryRefScope, ref: string, path: string): string {
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
