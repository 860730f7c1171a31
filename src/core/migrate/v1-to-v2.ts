/**
 * Version 1 -> 2: a linear list becomes a tree. Each entry gets an id and the previous
 * entry as parent; a compaction's line index (header = 0) becomes an entry id.
 * @module
 */
import { deriveEntryId } from "./derive-id.ts";
import { type FileObject, type Migration, migration, withVersion } from "./migration.ts";

export const v1ToV2: Migration = migration(1, 2, (sessionId) => {
  const taken = new Set<string>();
  // The id given to the object at each position (none to a header).
  const ids: (string | undefined)[] = [];
  let previous: string | null = null;
  return (object, position) => {
    if (object.type === "session") {
      ids[position] = undefined;
      return withVersion(object, 2);
    }
    const id = deriveEntryId(sessionId, position, taken);
    ids[position] = id;
    const entry: FileObject = { ...object, id, parentId: previous };
    previous = id;
    const index = entry.firstKeptEntryIndex;
    // Like pi: only a numeric index is resolved and removed; anything else is left alone.
    if (entry.type !== "compaction" || typeof index !== "number") return entry;
    const { firstKeptEntryIndex: _index, ...rest } = entry;
    // pi resolves the index while it hands out ids in file order, so a later entry has no id yet.
    const target = index <= position ? ids[index] : undefined;
    return target === undefined ? rest : { ...rest, firstKeptEntryId: target };
  };
});
