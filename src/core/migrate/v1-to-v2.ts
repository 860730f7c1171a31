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
    return result.map((object) => {
      if (object.type !== "compaction" || !("firstKeptEntryIndex" in object)) return object;
      const { firstKeptEntryIndex, ...rest } = object;
      const target = typeof firstKeptEntryIndex === "number" ? ids[firstKeptEntryIndex] : undefined;
      return target === undefined ? rest : { ...rest, firstKeptEntryId: target };
    });
  },
};
