/**
 * pi's module-level session helpers that take and give raw file objects: lenient line parsing
 * (a line that is not JSON is skipped), loading a file the way pi's `loadEntriesFromFile` does
 * (as a step function, so it runs synchronously), and migrating an array in place.
 * @module
 */
import type { CompactionEntry, FileEntry, SessionEntry } from "../core/format/types.ts";
import { migrateSession } from "../core/migrate/migrate-session.ts";
import { read, stat, type Steps } from "../io/io-steps.ts";

const SKIP = Symbol("skip");

/** A line's JSON value, or SKIP for a blank line or one that is not JSON. */
function parseJson(line: string): unknown {
  if (line.trim() === "") return SKIP;
  try {
    return JSON.parse(line);
  } catch {
    return SKIP;
  }
}

/** A line as a file loader takes it: also a falsy value (`null`, `0`) is skipped. */
function parseLine(line: string): FileEntry | null {
  const value = parseJson(line);
  return value === SKIP || !value ? null : value as FileEntry;
}

/** Every line of `content` that parses as JSON (whatever the value), in order; the others are skipped. */
export function parseSessionEntries(content: string): FileEntry[] {
  const entries: FileEntry[] = [];
  for (const line of content.split("\n")) {
    const value = parseJson(line);
    if (value !== SKIP) entries.push(value as FileEntry);
  }
  return entries;
}

const CHUNK = 1024 * 1024;

/**
 * The file's parsed lines, not migrated; [] when the file is missing or its first parsed line is
 * not a session header. Unlike pi, a torn last line is not completed on disk: reading never writes.
 */
export function* loadEntriesSteps(path: string): Steps<FileEntry[]> {
  if ((yield* stat(path)) === null) return [];
  const decoder = new TextDecoder();
  const entries: FileEntry[] = [];
  let pending = "";
  const take = (text: string, last: boolean) => {
    pending += text;
    const lines = pending.split("\n");
    pending = last ? "" : lines.pop()!;
    for (const line of lines) {
      const entry = parseLine(line);
      if (entry !== null) entries.push(entry);
    }
  };
  for (let at = 0; ; at += CHUNK) {
    const chunk = yield* read(path, at, at + CHUNK);
    take(decoder.decode(chunk, { stream: true }), false);
    if (chunk.length < CHUNK) break;
  }
  take(decoder.decode(), true);
  const header = entries[0] as { type?: unknown; id?: unknown } | undefined;
  if (header === undefined) return entries;
  return header.type === "session" && typeof header.id === "string" ? entries : [];
}

/**
 * Brings raw file objects to the current format in place, as pi's does: the array and its
 * objects are changed (ids and parents added, `hookMessage` roles renamed), not copied.
 */
export function migrateSessionEntries(entries: FileEntry[]): void {
  const header = entries.find((entry) => entry.type === "session");
  const { objects, migrated } = migrateSession(entries as never, typeof header?.id === "string" ? header.id : "");
  if (!migrated) return;
  objects.forEach((object, i) => {
    const target = entries[i] as unknown as Record<string, unknown>;
    // An entry the migration left as it was comes back as the same object: emptying it first would lose it.
    if (object === target) return;
    for (const key of Object.keys(target)) delete target[key];
    Object.assign(target, object);
  });
}

/** The last compaction entry in file order, or null. */
export function getLatestCompactionEntry(entries: readonly SessionEntry[]): CompactionEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].type === "compaction") return entries[i] as CompactionEntry;
  }
  return null;
}
