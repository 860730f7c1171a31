/**
 * The shape of one format step. Steps are data: `{from, to, start}`, pure, never mutating
 * their input, so the same file always gives the same result. A step migrates one object at a
 * time in file order (`start`), so a reader that streams a gigabyte migrates it without holding
 * it; `migrate` runs it over a whole file held in memory.
 * @module
 */

/** A parsed line of a session file: the header first, then entries (and stray headers). */
export type FileObject = Record<string, unknown>;

/**
 * Migrates the object at `position` of a file's objects (the header is 0), given every earlier
 * one before it, in order. Returns a new object, or the same one when nothing changes.
 */
export type ObjectStep = (object: FileObject, position: number) => FileObject;

export interface Migration {
  from: number;
  to: number;
  /** A step for one file; `sessionId` seeds deterministic ids. */
  start(sessionId: string): ObjectStep;
  /** Returns new objects; `sessionId` seeds deterministic ids. */
  migrate(objects: readonly FileObject[], sessionId: string): FileObject[];
}

/** A migration from its per-object step. */
export function migration(from: number, to: number, start: (sessionId: string) => ObjectStep): Migration {
  return {
    from,
    to,
    start,
    migrate(objects, sessionId) {
      const step = start(sessionId);
      return objects.map((object, position) => step(object, position));
    },
  };
}

/** A copy of `header` with its version set (in place in the key order if present, else last). */
export function withVersion(header: FileObject, version: number): FileObject {
  return { ...header, version };
}
