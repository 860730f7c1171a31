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

/** Tool call arguments a preview shows whole (`[read: path]`). */
const KEPT_ARGUMENTS = ["path", "file_path", "pattern"];

/** Keys whose string values a lean entry keeps whole (for `skimLine`). */
export const LEAN_KEPT_KEYS: ReadonlySet<string> = new Set([...KEPT_STRINGS, ...KEPT_MESSAGE, ...KEPT_ARGUMENTS]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How much a lean copy keeps. */
interface Cut {
  /** Other strings keep this many UTF-16 units at most. */
  chars: number;
  /** Keep the text of message content (its text blocks as one, cut) and tool call arguments. */
  texts: boolean;
}

const CHECK: Cut = { chars: 41, texts: false };
/** Enough for a one-line preview: `tree` clips free text at 200 characters, tool arguments at 50. */
const PREVIEW: Cut = { chars: 201, texts: true };

/** Blanks and control characters a one-line preview trims away. */
const LEAD = /^[\s\p{C}]*/u;
const BLANK = /\s/;

/** Whether a code unit is one that a one-line preview folds into a run of one space (`oneLine`). */
function folds(c: number): boolean {
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/**
 * A copy of `part` that holds no reference to the string it was cut from: engines keep a slice
 * as a view into the whole (V8 and JavaScriptCore both do), so 41 characters kept of a 26 KB
 * tool output would otherwise keep the 26 KB, and a lean 1 GB session would weigh what it read.
 */
function detached(part: string): string {
  return JSON.parse(JSON.stringify(part));
}

/**
 * A string cut once it holds `cut.chars` characters after its leading blanks and control
 * characters, a run of control characters counting as one, and then at a character that is not
 * blank (41: a problem message quotes at most 40 and an ellipsis; a preview folds runs into a
 * space, trims, then clips at 200 or less).
 */
function cutString(value: string, cut: Cut): string {
  if (value.length <= cut.chars) return value;
  let seen = 0;
  let inRun = false;
  for (let i = LEAD.exec(value)![0].length; i < value.length; i++) {
    const run = folds(value.charCodeAt(i));
    if (!run || !inRun) seen++;
    inRun = run;
    if (seen < cut.chars) continue;
    // Then on to a character that is not blank, so a trim cannot eat into what was counted.
    let end = i;
    while (end < value.length && (folds(value.charCodeAt(end)) || BLANK.test(value[end]))) end++;
    if (end >= value.length) return value;
    // Never end on half a surrogate pair.
    const code = value.charCodeAt(end);
    return detached(value.slice(0, code >= 0xd800 && code <= 0xdbff ? end + 2 : end + 1));
  }
  return value;
}

/** Same kind, no bulk: a cut string, [] for an array, {} for an object; other values as they are. */
function husk(value: unknown, cut: Cut): unknown {
  if (typeof value === "string") return cutString(value, cut);
  if (Array.isArray(value)) return [];
  if (isObject(value)) return {};
  return value;
}

/** Strings cut, arrays and objects kept with their members cut (tool call arguments). */
function cutDeep(value: unknown, cut: Cut, depth = 0): unknown {
  if (typeof value === "string") return cutString(value, cut);
  if (depth > 8 || typeof value !== "object" || value === null) return depth > 8 ? husk(value, cut) : value;
  if (Array.isArray(value)) return value.map((v) => cutDeep(v, cut, depth + 1));
  const out: Json = {};
  for (const key in value) {
    const v = (value as Json)[key];
    out[key] = depth === 0 && KEPT_ARGUMENTS.includes(key) && typeof v === "string" ? v : cutDeep(v, cut, depth + 1);
  }
  return out;
}

/** A cut text that is blank only when the whole text is. */
function cutText(text: string, cut: Cut): string {
  const kept = cutString(text, cut);
  return kept.length < text.length && kept.trim() === "" && text.trim() !== "" ? kept + text.trimStart()[0] : kept;
}

/**
 * Content of the same kind. Of an array, its tool calls stay (as `{type: "toolCall"}`, or whole
 * with cut arguments when keeping texts), and with texts its text blocks, as one cut block.
 */
function leanContent(content: unknown, cut: Cut): unknown {
  if (!Array.isArray(content)) return typeof content === "string" && cut.texts ? cutText(content, cut) : husk(content, cut);
  const out: Json[] = [];
  let text = "";
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "toolCall") {
      out.push(cut.texts ? { type: "toolCall", id: block.id, name: block.name, arguments: cutDeep(block.arguments, cut) } : { type: "toolCall" });
    } else if (cut.texts && block.type === "text" && typeof block.text === "string" && (text.length <= cut.chars || text.trim() === "")) text += block.text;
  }
  if (text) out.unshift({ type: "text", text: cutText(text, cut) });
  return out;
}

function leanMessage(message: Json, cut: Cut): Json {
  const out: Json = {};
  for (const key in message) {
    const value = message[key];
    if (key === "content") out.content = leanContent(value, cut);
    else if (KEPT_MESSAGE.has(key)) out[key] = value;
    // Other keys keep their presence only when small (numbers, booleans, null, cut strings).
    else if (typeof value !== "object" || value === null) out[key] = husk(value, cut);
  }
  return out;
}

function lean(entry: Json, cut: Cut): Json {
  const out: Json = {};
  for (const key in entry) {
    const value = entry[key];
    if (typeof value === "string") out[key] = KEPT_STRINGS.has(key) ? value : cutString(value, cut);
    else if (key === "message" && isObject(value)) out.message = leanMessage(value, cut);
    else if (key === "usage") out.usage = value;
    else if (key === "replacement" && isObject(value)) out.replacement = { content: leanContent(value.content, cut) };
    else if (key === "content" && cut.texts) out.content = leanContent(value, cut);
    else out[key] = husk(value, cut);
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
  return lean(entry, CHECK);
}

/**
 * A lean copy that still previews in one line (`tree`): strings keep 201 characters, message
 * text its first 201 (blank only when all of it is), tool calls their ids, names and cut
 * arguments.
 */
export function previewEntry(entry: Json): Json {
  return lean(entry, PREVIEW);
}

/** Reader options that hold lean entries and skip parsing the bulk of long lines. */
export const LEAN_READ: ReadOptions = {
  keep: leanEntry,
  skim: (bytes) => skimLine(bytes, LEAN_KEPT_KEYS, CHECK.chars),
  skimChars: CHECK.chars,
};

/** Reader options that hold preview entries (`previewEntry`) and skip parsing the rest of long lines. */
export const PREVIEW_READ: ReadOptions = {
  keep: previewEntry,
  skim: (bytes) => skimLine(bytes, LEAN_KEPT_KEYS, PREVIEW.chars),
  skimChars: PREVIEW.chars,
};
