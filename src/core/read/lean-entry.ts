/**
 * A lean copy of an entry: what the tree, `info` and `check` look at, without the bulk (texts,
 * tool outputs, images, details). A reader that keeps lean entries holds a 1 GB session in tens
 * of megabytes. Every check keeps its answer: other strings are cut to 41 characters (a problem
 * message quotes at most 40 and an ellipsis), arrays become [] and objects {} (so "is a string",
 * "is an array", "is an object" still hold), while ids, references, names, labels, models, roles,
 * timestamps and usage are kept as they are.
 * @module
 */

import type { ReadOptions } from "./read-session.ts";
import { skimLine } from "./skim-line.ts";

type Json = Record<string, unknown>;

/** Top-level string fields kept verbatim; other strings are cut (see `cut`). */
const KEPT_STRINGS: ReadonlySet<string> = new Set([
  "type", "id", "parentId", "timestamp", "targetId", "label", "name", "firstKeptEntryId", "fromId",
  "provider", "modelId", "model", "thinkingLevel", "customType",
]);

/** Message fields kept verbatim (all small); `content` keeps its kind and its tool calls. */
const KEPT_MESSAGE: ReadonlySet<string> = new Set([
  "role", "provider", "model", "responseModel", "api", "usage", "stopReason", "timestamp", "toolCallId", "toolName", "isError",
]);

/** Keys whose string values a lean entry keeps whole (for `skimLine`). */
export const LEAN_KEPT_KEYS: ReadonlySet<string> = new Set([...KEPT_STRINGS, ...KEPT_MESSAGE]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string cut to what a problem message can quote of it (`describe` in check-entries.ts). */
function cut(value: string): string {
  return value.length > 41 ? value.slice(0, 41) : value;
}

/** Same kind, no bulk: a cut string, [] for an array, {} for an object; other values as they are. */
function husk(value: unknown): unknown {
  if (typeof value === "string") return cut(value);
  if (Array.isArray(value)) return [];
  if (isObject(value)) return {};
  return value;
}

/** Content of the same kind; of an array, only its tool calls (as `{type: "toolCall"}`) stay. */
function leanContent(content: unknown): unknown {
  if (!Array.isArray(content)) return husk(content);
  const calls: Json[] = [];
  for (const block of content) if (isObject(block) && block.type === "toolCall") calls.push({ type: "toolCall" });
  return calls;
}

function leanMessage(message: Json): Json {
  const out: Json = {};
  for (const key in message) {
    const value = message[key];
    if (key === "content") out.content = leanContent(value);
    else if (KEPT_MESSAGE.has(key)) out[key] = value;
    // Other keys keep their presence only when small (numbers, booleans, null).
    else if (typeof value !== "object" || value === null) out[key] = husk(value);
  }
  return out;
}

/**
 * The lean copy of one parsed entry (see the module comment). Not for anything that shows or
 * writes content: `context`, `show`, `export` and rewrites read the lines again.
 *
 * @example
 * ```ts
 * leanEntry({ type: "message", id: "a", parentId: null, timestamp: "t",
 *   message: { role: "assistant", content: [{ type: "text", text: "…" }, { type: "toolCall", id: "c", name: "read", arguments: {} }] } });
 * // { type: "message", id: "a", parentId: null, timestamp: "t", message: { role: "assistant", content: [{ type: "toolCall" }] } }
 * ```
 */
export function leanEntry(entry: Json): Json {
  const out: Json = {};
  for (const key in entry) {
    const value = entry[key];
    if (typeof value === "string") out[key] = KEPT_STRINGS.has(key) ? value : cut(value);
    else if (key === "message" && isObject(value)) out.message = leanMessage(value);
    else if (key === "usage") out.usage = value;
    else if (key === "replacement" && isObject(value)) out.replacement = { content: leanContent(value.content) };
    else out[key] = husk(value);
  }
  return out;
}

/** Reader options that hold lean entries and skip parsing the bulk of long lines. */
export const LEAN_READ: ReadOptions = {
  keep: leanEntry,
  skim: (bytes) => skimLine(bytes, LEAN_KEPT_KEYS),
};
