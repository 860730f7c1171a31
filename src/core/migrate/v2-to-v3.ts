/**
 * Version 2 -> 3: the message role `hookMessage` was renamed `custom`.
 * @module
 */
import { type FileObject, type Migration, migration, withVersion } from "./migration.ts";

function isHookMessage(object: FileObject): boolean {
  const message = object.message;
  return object.type === "message" && typeof message === "object" && message !== null &&
    (message as FileObject).role === "hookMessage";
}

export const v2ToV3: Migration = migration(2, 3, () => (object) => {
  if (object.type === "session") return withVersion(object, 3);
  if (!isHookMessage(object)) return object;
  return { ...object, message: { ...(object.message as FileObject), role: "custom" } };
});
