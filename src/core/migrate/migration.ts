/**
 * The shape of one format step. Steps are data: `{from, to, migrate}`, pure, never
 * mutating their input, so the same file always gives the same result.
 * @module
 */

/** A parsed line of a session file: the header first, then entries (and stray headers). */
export type FileObject = Record<string, unknown>;

export interface Migration {
  from: number;
  to: number;
  /** Returns new objects; `sessionId` seeds deterministic ids. */
  migrate(objects: readonly FileObject[], sessionId: string): FileObject[];
}

/** A copy of `header` with its version set (in place in the key order if present, else last). */
export function withVersion(header: FileObject, version: number): FileObject {
  return { ...header, version };
}
