/**
 * The entries others appended to a session file since we last wrote it, read from the bytes
 * past the end we knew. Pure: a writer reads those bytes under the lock and takes the entries in
 * before it picks the parent of its own, so concurrent appends form one chain.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { isObject } from "../core/read/decode-line.ts";

const NEWLINE = 0x0a;

/**
 * The entries in the complete lines of `tail` (bytes that start at a line start), in file order.
 * A line that is not an entry (malformed, a header, no id) is passed over: it stays in the file,
 * where `check` reports it. A last line without a newline is not read (it may be half written).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appendedEntries } from "./appended-entries.ts";
 *
 * const tail = new TextEncoder().encode('{"type":"label","id":"b","parentId":"a","timestamp":"t","targetId":"a"}\n{"type":"lab');
 * assert.deepEqual(appendedEntries(tail).map((e) => e.id), ["b"]);
 * ```
 */
export function appendedEntries(tail: Uint8Array): SessionEntry[] {
  const end = tail.lastIndexOf(NEWLINE) + 1;
  const entries: SessionEntry[] = [];
  for (const line of new TextDecoder().decode(tail.subarray(0, end)).split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(value) || typeof value.type !== "string" || value.type === "session") continue;
    if (typeof value.id !== "string" || !(value.parentId === null || typeof value.parentId === "string")) continue;
    entries.push(value as unknown as SessionEntry);
  }
  return entries;
}
