/**
 * One entry as one line of text, by pi's /tree content rules (`user: …`, `[read: p:1-40]`,
 * `[compaction: 50k tokens]`, …), as toned spans, and spans drawn cut to a width. Pure.
 * Free text is clipped at 200 characters even where pi does not clip, so a row stays bounded in a pipe.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { tildePath } from "../core/storage/paths.ts";
import type { Colors } from "./colors.ts";
import { oneLine } from "./control-chars.ts";
import { textWidth } from "./text-width.ts";

/** Colour roles, mapped to real colours by whoever draws the line. */
export type Tone = "plain" | "accent" | "success" | "muted" | "dim" | "error" | "warning" | "custom" | "border";

/** A run of text in one tone. */
export interface Span {
  text: string;
  tone: Tone;
}

/** A tool call as found in an assistant message, keyed by its id for the matching result. */
export interface ToolCallInfo {
  name: string;
  arguments: Record<string, unknown>;
}

/** What `entrySpans` needs beyond the entry itself. */
export interface EntryLineOptions {
  /** Tool calls by id, to describe tool results (see `collectToolCalls`). */
  toolCalls?: ReadonlyMap<string, ToolCallInfo>;
  /** Paths under this directory are shown as `~/…`. */
  home?: string;
}

const TEXT_LIMIT = 200;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first `limit` UTF-16 units, never ending on half a surrogate pair. */
function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** One line, control characters as spaces, trimmed (pi turns newlines and tabs into spaces). */
function flat(text: string): string {
  return oneLine(text).trim();
}

/** The text blocks of message content, concatenated as pi does (no separator). */
export function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const block of content) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string") text += block.text;
  }
  return text;
}

/** True when the content holds a non-blank text block (pi's test for showing an assistant row). */
export function hasText(content: unknown): boolean {
  return textOfContent(content).trim() !== "";
}

/** Every tool call of every assistant message, by call id. */
export function collectToolCalls(entries: Iterable<SessionEntry>): Map<string, ToolCallInfo> {
  const calls = new Map<string, ToolCallInfo>();
  for (const entry of entries) {
    if (entry.type !== "message") continue;
    const message: unknown = (entry as unknown as Json).message;
    if (!isObject(message) || message.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isObject(block) || block.type !== "toolCall" || typeof block.id !== "string") continue;
      calls.set(block.id, { name: String(block.name), arguments: isObject(block.arguments) ? block.arguments : {} });
    }
  }
  return calls;
}

function lineNumber(value: unknown): number | undefined {
  if (typeof value === "string" && value.trim() !== "") value = Number(value);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** `:start-end` for a read call's offset and limit, `:start` without a limit, "" when neither. */
export function readRange(offset: unknown, limit: unknown): string {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : lineNumber(offset);
  if (start === undefined) return "";
  if (limit == null) return `:${start}`;
  const count = lineNumber(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return end ? `:${start}-${end}` : `:${start}`;
}

/**
 * How pi's /tree names a tool result: by the call that asked for it.
 *
 * @example
 * ```ts
 * toolCallText("read", { path: "src/a.ts", offset: 1, limit: 40 }); // "[read: src/a.ts:1-40]"
 * toolCallText("bash", { command: "npm test" }); // "[bash: npm test]"
 * ```
 */
export function toolCallText(name: string, args: Json, home = ""): string {
  const path = (value: unknown, fallback = "") => tildePath(flat(String(value || fallback)), home);
  switch (name) {
    case "read":
      return `[read: ${path(args.path || args.file_path)}${readRange(args.offset, args.limit)}]`;
    case "write":
    case "edit":
      return `[${name}: ${path(args.path || args.file_path)}]`;
    case "bash": {
      const command = flat(String(args.command || ""));
      return `[bash: ${command.slice(0, 50)}${command.length > 50 ? "…" : ""}]`;
    }
    case "grep":
      return `[grep: /${flat(String(args.pattern || ""))}/ in ${path(args.path, ".")}]`;
    case "find":
      return `[find: ${flat(String(args.pattern || ""))} in ${path(args.path, ".")}]`;
    case "ls":
      return `[ls: ${path(args.path, ".")}]`;
    default: {
      const json = flat(JSON.stringify(args) ?? "");
      return `[${flat(name)}: ${json.slice(0, 40)}${json.length > 40 ? "…" : ""}]`;
    }
  }
}

/**
 * What the row of a result of `call` shows.
 *
 * @example
 * ```ts
 * spanText(callSpans({ name: "ls", arguments: { path: "src" } })); // "[ls: src]"
 * ```
 */
export function callSpans(call: ToolCallInfo, home?: string): Span[] {
  return [{ text: toolCallText(call.name, call.arguments, home), tone: "muted" }];
}

function messageSpans(message: unknown, options: EntryLineOptions): Span[] {
  if (!isObject(message)) return [{ text: "[message]", tone: "dim" }];
  const role = String(message.role);
  switch (role) {
    case "user":
      return [{ text: "user: ", tone: "accent" }, { text: flat(clip(textOfContent(message.content), TEXT_LIMIT)), tone: "plain" }];
    case "assistant": {
      const head: Span = { text: "assistant: ", tone: "success" };
      const text = flat(clip(textOfContent(message.content), TEXT_LIMIT));
      if (text) return [head, { text, tone: "plain" }];
      if (message.stopReason === "aborted") return [head, { text: "(aborted)", tone: "muted" }];
      if (typeof message.errorMessage === "string" && message.errorMessage) {
        return [head, { text: flat(message.errorMessage).slice(0, 80), tone: "error" }];
      }
      return [head, { text: "(no content)", tone: "muted" }];
    }
    case "toolResult": {
      const call = typeof message.toolCallId === "string" ? options.toolCalls?.get(message.toolCallId) : undefined;
      return call ? callSpans(call, options.home) : [{ text: `[${flat(String(message.toolName ?? "tool"))}]`, tone: "muted" }];
    }
    case "bashExecution":
      return [{ text: `[bash]: ${flat(clip(String(message.command ?? ""), TEXT_LIMIT))}`, tone: "dim" }];
    default:
      return [{ text: `[${flat(role)}]`, tone: "dim" }];
  }
}

/**
 * The row content of one entry, as spans.
 *
 * @example
 * ```ts
 * const spans = entrySpans({ type: "model_change", id: "a", parentId: null, timestamp: "", provider: "x", modelId: "m" } as never);
 * spanText(spans); // "[model: m]"
 * ```
 */
export function entrySpans(entry: SessionEntry, options: EntryLineOptions = {}): Span[] {
  const e = entry as unknown as Json;
  const dim = (text: string): Span[] => [{ text, tone: "dim" }];
  switch (entry.type) {
    case "message":
      return messageSpans(e.message, options);
    case "custom_message":
      return [
        { text: `[${flat(String(e.customType))}]: `, tone: "custom" },
        { text: flat(clip(textOfContent(e.content), TEXT_LIMIT)), tone: "plain" },
      ];
    case "compaction": {
      const tokens = typeof e.tokensBefore === "number" && Number.isFinite(e.tokensBefore) ? Math.round(e.tokensBefore / 1000) : "?";
      return [{ text: `[compaction: ${tokens}k tokens]`, tone: "border" }];
    }
    case "branch_summary":
      return [{ text: "[branch summary]: ", tone: "warning" }, { text: flat(clip(String(e.summary ?? ""), TEXT_LIMIT)), tone: "plain" }];
    case "model_change":
      return dim(`[model: ${flat(String(e.modelId))}]`);
    case "thinking_level_change":
      return dim(`[thinking: ${flat(String(e.thinkingLevel))}]`);
    case "custom":
      return dim(`[custom: ${flat(String(e.customType))}]`);
    case "context_edit":
      return dim(`[context ${e.replacement === null ? "omit" : "replace"}: ${flat(String(e.targetId))}]`);
    case "label":
      return dim(`[label: ${typeof e.label === "string" && e.label ? flat(clip(e.label, TEXT_LIMIT)) : "(cleared)"}]`);
    case "session_info": {
      const name = typeof e.name === "string" ? flat(clip(e.name, TEXT_LIMIT)) : "";
      return dim(`[title: ${name || "empty"}]`);
    }
    case "usage":
      return dim(`[usage: ${flat(String(e.kind ?? ""))} ${flat(String(e.provider ?? ""))}/${flat(String(e.model ?? ""))}]`);
    default:
      return dim(`[${flat(String(e.type))}]`);
  }
}

/** The plain text of spans. */
export function spanText(spans: readonly Span[]): string {
  let text = "";
  for (const span of spans) text += span.text;
  return text;
}

/** The row text of one entry, without colours. */
export function entryLine(entry: SessionEntry, options: EntryLineOptions = {}): string {
  return spanText(entrySpans(entry, options));
}

const TONES: Record<Tone, (c: Colors, text: string) => string> = {
  plain: (_c, t) => t,
  accent: (c, t) => c.cyan(t),
  success: (c, t) => c.green(t),
  muted: (c, t) => c.gray(t),
  dim: (c, t) => c.dim(t),
  error: (c, t) => c.red(t),
  warning: (c, t) => c.yellow(t),
  custom: (c, t) => c.magenta(t),
  border: (c, t) => c.blue(t),
};

/** Cuts spans to `width` cells in total, the last one ending in `…` when cut. */
export function truncateSpans(spans: readonly Span[], width: number): Span[] {
  const widths = spans.map((span) => textWidth(span.text));
  if (widths.reduce((sum, w) => sum + w, 0) <= width) return [...spans];
  const out: Span[] = [];
  let room = Math.max(0, width - 1);
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    if (widths[i] <= room) {
      out.push(span);
      room -= widths[i];
      continue;
    }
    // Only the span that does not fit is walked character by character.
    let text = "";
    for (const char of span.text) {
      const w = textWidth(char);
      if (w > room) break;
      text += char;
      room -= w;
    }
    if (text) out.push({ text, tone: span.tone });
    if (width > 0) out.push({ text: "…", tone: span.tone });
    break;
  }
  return out;
}

/** Spans as one line, cut to `width` cells with `…`, coloured by tone when `colors` is given. */
export function renderSpans(spans: readonly Span[], width: number, colors?: Colors): string {
  const cut = Number.isFinite(width) ? truncateSpans(spans, width) : spans;
  return cut.map((span) => (colors ? TONES[span.tone](colors, span.text) : span.text)).join("");
}
