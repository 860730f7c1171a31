/**
 * Runs the format steps a file needs, oldest first. Pure: a file at the current
 * version comes back as the same array; older files come back as new objects.
 * @module
 */
import { CURRENT_SESSION_VERSION } from "../format/types.ts";
import type { FileObject, Migration, ObjectStep } from "./migration.ts";
import { v1ToV2 } from "./v1-to-v2.ts";
import { v2ToV3 } from "./v2-to-v3.ts";

/** Every step, in order. */
export const MIGRATIONS: readonly Migration[] = [v1ToV2, v2ToV3];

/**
 * The format version a header declares. Missing means 1. Like pi, a numeric string counts
 * as its number, and a value that is no number at all is taken as current (never migrated).
 */
export function headerVersion(header: FileObject | undefined): number {
  const raw = header?.version;
  if (raw === undefined || raw === null) return 1;
  const version = Number(raw);
  return Number.isNaN(version) ? CURRENT_SESSION_VERSION : version;
}

/**
 * The steps a file of version `fromVersion` needs, as one step over its objects in file order
 * (for a reader that streams); null when it needs none.
 */
export function objectMigration(fromVersion: number, sessionId: string): ObjectStep | null {
  const steps = MIGRATIONS.filter((step) => fromVersion < step.to && fromVersion < CURRENT_SESSION_VERSION).map((step) => step.start(sessionId));
  if (steps.length === 0) return null;
  return (object, position) => steps.reduce((current, step) => step(current, position), object);
}

/**
 * Brings parsed file objects (header first) to the current version.
 *
 * @example
 * ```ts
 * const { objects, migrated } = migrateSession([{ type: "session", id: "s", timestamp: "", cwd: "/" },
 *   { type: "message", timestamp: "", message: { role: "user", content: "hi" } }], "s");
 * // migrated === true; objects[1].id is 8 hex characters, objects[1].parentId === null
 * ```
 */
export function migrateSession(
  objects: readonly FileObject[],
  sessionId: string,
): { objects: FileObject[]; migrated: boolean; fromVersion: number } {
  const fromVersion = headerVersion(objects[0]);
  const step = objectMigration(fromVersion, sessionId);
  if (step === null) return { objects: objects as FileObject[], migrated: false, fromVersion };
  return { objects: objects.map((object, position) => step(object, position)), migrated: true, fromVersion };
}
