/**
 * Version 1 -> 2: a linear list becomes a tree. Each entry gets an id and the previous
 * entry as parent; a compaction's line index (header = 0) becomes an entry id.
 * @module
 */
import { deriveEntryId } from "./derive-id.ts";
import { type FileObject, type Migration, withVersion } from "./migration.ts";

export const v1ToV2: Migration = {
  from: 1,
  to: 2,
  migrate(objects, sessionId) {
    const taken = new Set<string>();
    const ids: (string | undefined)[] = [];
    const result: FileObject[] = [];
    let previous: string | null = null;
    objects.forEach((object, position) => {
      if (object.type === "session") {
        ids.push(undefined);
        result.push(withVersion(object, 2));
        return;
      }
      const id = deriveEntryId(sessionId, position, taken);
      ids.push(id);
      result.push({ ...object, id, parentId: previous });
      previous = id;
    });
    return result.map((object, position) => {
      const index = object.firstKeptEntryIndex;
      // Like pi: only a numeric index is resolved and removed; anything else is left alone.
      if (object.type !== "compaction" || typeof index !== "number") return object;
      const { firstKeptEntryIndex: _index, ...rest } = object;
      // pi resolves the index while it hands out ids in file order, so a later entry has no id yet.
      const target = index <= position ? ids[index] : undefined;
      return target === undefined ? rest : { ...rest, firstKeptEntryId: target };
    });
  },
};
