/**
 * A branch as a transcript: each entry becomes a block (title, time, id, and parts such as
 * text, tool calls, abbreviated output, quoted summaries), drawn here as plain text and by
 * `transcript-markdown.ts` as Markdown. Pure; times are UTC so output is the same everywhere.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import type { Colors } from "./colors.ts";
import { printable } from "./control-chars.ts";
import { groupDigits } from "./numbers.ts";
import { entryLine, textOfContent } from "./entry-line.ts";

/** One piece of a block, in display order. */
export type Part =
  | { kind: "text"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "call"; name: string; args: Record<string, unknown> }
  | { kind: "output"; text: string }
  | { kind: "quote"; text: string }
  | { kind: "note"; text: string }
  | { kind: "usage"; text: string };

/** One entry of the transcript. A block without parts whose `line` is set draws as one dim line. */
export interface Block {
  entryId: string;
  /** `YYYY-MM-DD HH:MM` in UTC, or "" when the timestamp is not a date. */
  time: string;
  title: string;
  label?: string;
  /** Set for settings-like entries (model, thinking level, labels, …): their one line. */
  line?: string;
  parts: Part[];
}

/** How much of each entry `entryBlock` shows. */
export interface TranscriptOptions {
  /** Show thinking in full instead of `[thinking: N chars]`. */
  thinking?: boolean;
  /** Add token and cost lines to assistant turns, and show `usage` entries. */
  usage?: boolean;
  labels?: ReadonlyMap<string, { label: string }>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `2024-01-01 14:00` (UTC) for an ISO timestamp; "" when it is not a date. */
export function formatTime(timestamp: unknown): string {
  const date = new Date(typeof timestamp === "string" || typeof timestamp === "number" ? timestamp : NaN);
  if (Number.isNaN(date.getTime())) return "";
  return date.toISOString().slice(0, 16).replace("T", " ");
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** `anthropic/claude · 1,234 in (1,000 cached) / 56 out · $0.0123` for a usage object. */
export function usageText(usage: unknown, model?: string): string {
  const u = isObject(usage) ? usage : {};
  const input = num(u.input) + num(u.cacheRead) + num(u.cacheWrite);
  const cached = num(u.cacheRead) > 0 ? ` (${groupDigits(num(u.cacheRead))} cached)` : "";
  const cost = num(isObject(u.cost) ? u.cost.total : undefined);
  return `${model ? model + " · " : ""}${groupDigits(input)} in${cached} / ${groupDigits(num(u.output))} out · $${cost.toFixed(4)}`;
}

/** A value as a short argument: JSON (strings quoted, newlines escaped), clipped to about `limit`. */
function argText(value: unknown, limit = 60): string {
  if (typeof value === "string" && value.length > limit) return JSON.stringify(value.slice(0, limit - 1) + "…");
  const json = JSON.stringify(value) ?? String(value);
  return json.length > limit ? json.slice(0, limit - 1) + "…" : json;
}

/**
 * A tool call as one line, e.g. `read(path="src/a.ts", offset=1)`.
 *
 * @example
 * ```ts
 * callText("read", { path: "src/a.ts", offset: 1 }); // 'read(path="src/a.ts", offset=1)'
 * ```
 */
export function callText(name: string, args: Record<string, unknown>): string {
  return `${name}(${Object.entries(args).map(([key, value]) => `${key}=${argText(value)}`).join(", ")})`;
}

/** The first `max` lines of `text`, and how many were left out. */
export function abbreviate(text: string, max = 10): { lines: string[]; more: number } {
  const lines = text.replace(/\n+$/, "").split("\n");
  return lines.length <= max ? { lines, more: 0 } : { lines: lines.slice(0, max), more: lines.length - max };
}

function contentParts(content: unknown, options: TranscriptOptions): Part[] {
  if (typeof content === "string") return content.trim() ? [{ kind: "text", text: content }] : [];
  if (!Array.isArray(content)) return [];
  const parts: Part[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string" && block.text.trim()) parts.push({ kind: "text", text: block.text });
    else if (block.type === "thinking" && typeof block.thinking === "string" && block.thinking.trim()) {
      parts.push(options.thinking ? { kind: "thinking", text: block.thinking } : { kind: "note", text: `[thinking: ${groupDigits(block.thinking.length)} chars]` });
    } else if (block.type === "toolCall") parts.push({ kind: "call", name: String(block.name), args: isObject(block.arguments) ? block.arguments : {} });
    else if (block.type === "image") parts.push({ kind: "note", text: `[image${typeof block.mimeType === "string" ? " " + block.mimeType : ""}]` });
  }
  return parts;
}

function messageBlock(base: Omit<Block, "title" | "parts">, message: Json, options: TranscriptOptions): Block {
  const role = String(message.role);
  switch (role) {
    case "assistant": {
      const parts = contentParts(message.content, options);
      if (message.stopReason === "aborted") parts.push({ kind: "note", text: "(aborted)" });
      if (typeof message.errorMessage === "string" && message.errorMessage) parts.push({ kind: "note", text: `error: ${message.errorMessage}` });
      if (message.stopReason === "length") parts.push({ kind: "note", text: "(stopped at the output limit)" });
      if (options.usage) {
        const model = typeof message.provider === "string" ? `${message.provider}/${message.responseModel ?? message.model}` : undefined;
        parts.push({ kind: "usage", text: usageText(message.usage, model) });
      }
      return { ...base, title: "assistant", parts };
    }
    case "toolResult": {
      const text = textOfContent(message.content);
      const parts: Part[] = text ? [{ kind: "output", text }] : [];
      if (!text) parts.push({ kind: "note", text: "(no output)" });
      return { ...base, title: `tool result: ${message.toolName ?? "tool"}${message.isError ? " (error)" : ""}`, parts };
    }
    case "bashExecution": {
      const parts: Part[] = [{ kind: "call", name: "$", args: { command: message.command } }];
      parts.push(typeof message.output === "string" && message.output ? { kind: "output", text: message.output } : { kind: "note", text: "(no output)" });
      if (message.cancelled) parts.push({ kind: "note", text: "(cancelled)" });
      else if (typeof message.exitCode === "number" && message.exitCode !== 0) parts.push({ kind: "note", text: `exit code ${message.exitCode}` });
      if (message.excludeFromContext) parts.push({ kind: "note", text: "(not sent to the model)" });
      return { ...base, title: "bash", parts };
    }
    case "branchSummary":
    case "compactionSummary":
      return { ...base, title: role === "branchSummary" ? "branch summary" : "compaction summary", parts: [{ kind: "quote", text: String(message.summary ?? "") }] };
    case "system":
      return { ...base, title: "system", parts: [{ kind: "output", text: textOfContent(message.content) }] };
    case "custom":
      return { ...base, title: `custom: ${message.customType}`, parts: contentParts(message.content, options) };
    case "user":
      return { ...base, title: "user", parts: contentParts(message.content, options) };
    default:
      return { ...base, title: role, parts: contentParts(message.content, options) };
  }
}

function printableBlock(block: Block): Block {
  const parts = block.parts.map((part): Part =>
    part.kind === "call"
      ? { kind: "call", name: printable(part.name), args: part.name === "$" ? { command: printable(String(part.args.command ?? "")) } : part.args }
      : { ...part, text: printable(part.text) }
  );
  return {
    ...block,
    entryId: printable(block.entryId),
    title: printable(block.title),
    ...(block.label !== undefined ? { label: printable(block.label) } : {}),
    ...(block.line !== undefined ? { line: printable(block.line) } : {}),
    parts,
  };
}

/** The block of one entry (its text made printable), or null for a hidden one (`usage` entries without `usage`). */
export function entryBlock(entry: SessionEntry, options: TranscriptOptions = {}): Block | null {
  const block = rawBlock(entry, options);
  return block && printableBlock(block);
}

function rawBlock(entry: SessionEntry, options: TranscriptOptions): Block | null {
  const e = entry as unknown as Json;
  const label = options.labels?.get(entry.id)?.label;
  const base = { entryId: entry.id, time: formatTime(e.timestamp), ...(label !== undefined ? { label } : {}) };
  switch (entry.type) {
    case "message":
      return isObject(e.message) ? messageBlock(base, e.message, options) : { ...base, title: "message", parts: [{ kind: "note", text: "(no message)" }] };
    case "custom_message":
      return { ...base, title: `custom: ${e.customType}`, parts: contentParts(e.content, options) };
    case "compaction": {
      const tokens = typeof e.tokensBefore === "number" ? `${groupDigits(e.tokensBefore)} tokens before` : "tokens before unknown";
      const parts: Part[] = [{ kind: "quote", text: String(e.summary ?? "") }, { kind: "note", text: `(${tokens})` }];
      if (options.usage && e.usage) parts.push({ kind: "usage", text: usageText(e.usage) });
      return { ...base, title: "compaction", parts };
    }
    case "branch_summary": {
      const parts: Part[] = [{ kind: "quote", text: String(e.summary ?? "") }];
      if (options.usage && e.usage) parts.push({ kind: "usage", text: usageText(e.usage) });
      return { ...base, title: "branch summary", parts };
    }
    case "usage":
      if (!options.usage) return null;
      return { ...base, title: "usage", line: `[usage: ${e.kind ?? ""}] ${usageText(e.usage, `${e.provider}/${e.model}`)}`, parts: [] };
    default:
      return { ...base, title: String(entry.type), line: entryLine(entry), parts: [] };
  }
}

/** A block as plain (optionally coloured) text lines. */
export function renderTextBlock(block: Block, c: Colors): string[] {
  const meta = [block.time, block.entryId].filter(Boolean).join(" · ");
  const label = block.label !== undefined ? " " + c.yellow(`[${block.label}]`) : "";
  if (block.line !== undefined) return [c.dim(`·· ${block.line} · ${meta}`) + label];
  const lines = [c.dim("── ") + c.bold(block.title) + c.dim(` · ${meta}`) + label];
  for (const part of block.parts) {
    switch (part.kind) {
      case "text":
        lines.push(part.text);
        break;
      case "thinking":
        // Loops, not push(...): a text of 100k+ lines would overflow the stack as arguments.
        for (const line of part.text.split("\n")) lines.push(c.dim(c.italic(line)));
        break;
      case "call":
        lines.push(c.cyan(part.name === "$" ? `$ ${String(part.args.command ?? "")}` : `→ ${callText(part.name, part.args)}`));
        break;
      case "output": {
        const { lines: shown, more } = abbreviate(part.text);
        for (const line of shown) lines.push(line);
        if (more > 0) lines.push(c.dim(`… (${more} more line${more === 1 ? "" : "s"})`));
        break;
      }
      case "quote":
        for (const line of part.text.split("\n")) lines.push(c.dim("> ") + line);
        break;
      case "note":
        lines.push(c.dim(part.text));
        break;
      case "usage":
        lines.push(c.dim(`usage: ${part.text}`));
        break;
    }
  }
  return lines;
}

/**
 * The text transcript one block at a time: blocks separated by a blank line, runs of one-line
 * settings entries kept together (what `transcriptLines` gives for all the blocks at once).
 *
 * @example
 * ```ts
 * // const text = new TranscriptText(colors); for (const block of blocks) write(text.lines(block));
 * ```
 */
export class TranscriptText {
  readonly #colors: Colors;
  #started = false;
  #previousWasLine = false;

  constructor(colors: Colors) {
    this.#colors = colors;
  }

  /** The lines of `block`, after a blank line where one separates it from the block before. */
  lines(block: Block): string[] {
    const isLine = block.line !== undefined;
    const lines = this.#started && !(isLine && this.#previousWasLine) ? [""] : [];
    for (const line of renderTextBlock(block, this.#colors)) lines.push(line);
    this.#started ||= lines.length > 0;
    this.#previousWasLine = isLine;
    return lines;
  }
}

/**
 * The text transcript of `blocks`: blocks separated by a blank line, runs of one-line settings
 * entries kept together.
 */
export function transcriptLines(blocks: readonly Block[], c: Colors): string[] {
  const text = new TranscriptText(c);
  const lines: string[] = [];
  // Loops, not push(...): a block of 100k+ lines would overflow the stack as arguments.
  for (const block of blocks) for (const line of text.lines(block)) lines.push(line);
  return lines;
}
