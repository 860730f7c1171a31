/**
 * Small builders for session lines in core tests: one entry (or message) per call, fixed
 * timestamps so every result is reproducible, and `extra` to override any field.
 * @module
 */
import type { AgentMessage, SessionEntry, SessionHeader } from "../../src/core/mod.ts";

type Extra = Record<string, unknown>;

/** The timestamp every builder uses unless told otherwise. */
export const T0 = "2024-01-01T00:00:00.000Z";
export const T0_MS = Date.parse(T0);

/** `T0` plus `seconds`, as an ISO string; for tests where order in time matters. */
export function at(seconds: number): string {
  return new Date(T0_MS + seconds * 1000).toISOString();
}

/** A header line; `version: null` writes no version key (a version 1 file). */
export function header(id = "sess-1", version: number | null = 3, extra: Extra = {}): SessionHeader {
  const base = version === null
    ? { type: "session", id, timestamp: T0, cwd: "/work" }
    : { type: "session", version, id, timestamp: T0, cwd: "/work" };
  return { ...base, ...extra } as SessionHeader;
}

/** Any entry: the common fields, then the type's own fields. */
export function entry(type: string, id: string, parent: string | null, fields: Extra = {}, extra: Extra = {}): SessionEntry {
  return { type, id, parentId: parent, timestamp: T0, ...fields, ...extra } as unknown as SessionEntry;
}

export function userMsg(text: string, extra: Extra = {}): AgentMessage {
  return { role: "user", content: text, timestamp: T0_MS, ...extra } as AgentMessage;
}

export function assistantMsg(text: string, extra: Extra = {}): AgentMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-test",
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: T0_MS,
    ...extra,
  } as AgentMessage;
}

export function systemMsg(text: string, extra: Extra = {}): AgentMessage {
  return { role: "system", content: text, timestamp: T0_MS, ...extra } as AgentMessage;
}

export function toolResultMsg(text: string, extra: Extra = {}): AgentMessage {
  return {
    role: "toolResult",
    toolCallId: "call-1",
    toolName: "bash",
    content: [{ type: "text", text }],
    isError: false,
    timestamp: T0_MS,
    ...extra,
  } as AgentMessage;
}

/** A `message` entry holding any message object (or, in hostile tests, anything at all). */
export function message(id: string, parent: string | null, msg: unknown, extra: Extra = {}): SessionEntry {
  return entry("message", id, parent, { message: msg }, extra);
}

export function user(id: string, parent: string | null, text: string, extra: Extra = {}): SessionEntry {
  return message(id, parent, userMsg(text), extra);
}

export function assistant(id: string, parent: string | null, text: string, extra: Extra = {}): SessionEntry {
  return message(id, parent, assistantMsg(text), extra);
}

export function system(id: string, parent: string | null, text: string, extra: Extra = {}): SessionEntry {
  return message(id, parent, systemMsg(text), extra);
}

export function toolResult(id: string, parent: string | null, text: string, extra: Extra = {}): SessionEntry {
  return message(id, parent, toolResultMsg(text), extra);
}

export interface CompactionFields {
  summary?: unknown;
  tokensBefore?: unknown;
  firstKeptEntryId?: unknown;
  retainedTail?: unknown;
  systemMessage?: unknown;
}

export function compaction(id: string, parent: string | null, fields: CompactionFields = {}, extra: Extra = {}): SessionEntry {
  return entry("compaction", id, parent, { summary: `summary of ${id}`, tokensBefore: 1000, ...fields }, extra);
}

export function branchSummary(id: string, parent: string | null, fromId: string, summary: string, extra: Extra = {}): SessionEntry {
  return entry("branch_summary", id, parent, { fromId, summary }, extra);
}

export function customMessage(id: string, parent: string | null, content: unknown, extra: Extra = {}): SessionEntry {
  return entry("custom_message", id, parent, { customType: "ext", content, display: true }, extra);
}

export function custom(id: string, parent: string | null, data: unknown = {}, extra: Extra = {}): SessionEntry {
  return entry("custom", id, parent, { customType: "ext", data }, extra);
}

/** `label: undefined` writes no label key, as pi does when it clears a label. */
export function label(id: string, parent: string | null, targetId: string, text?: string, extra: Extra = {}): SessionEntry {
  return entry("label", id, parent, text === undefined ? { targetId } : { targetId, label: text }, extra);
}

export function sessionInfo(id: string, parent: string | null, name: unknown, extra: Extra = {}): SessionEntry {
  return entry("session_info", id, parent, { name }, extra);
}

export function modelChange(id: string, parent: string | null, provider: string, modelId: string, extra: Extra = {}): SessionEntry {
  return entry("model_change", id, parent, { provider, modelId }, extra);
}

export function thinking(id: string, parent: string | null, thinkingLevel: string, extra: Extra = {}): SessionEntry {
  return entry("thinking_level_change", id, parent, { thinkingLevel }, extra);
}

export function contextEdit(id: string, parent: string | null, targetId: string, replacement: unknown, extra: Extra = {}): SessionEntry {
  return entry("context_edit", id, parent, { targetId, replacement }, extra);
}

/** One JSON line per object, each ending in `\n`. */
export function jsonl(...objects: unknown[]): string {
  return objects.map((object) => JSON.stringify(object) + "\n").join("");
}

/** UTF-8 bytes of a string. */
export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Concatenates byte arrays (and strings, as UTF-8). */
export function concat(...parts: (Uint8Array | string)[]): Uint8Array {
  const arrays = parts.map((part) => typeof part === "string" ? bytes(part) : part);
  const result = new Uint8Array(arrays.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of arrays) {
    result.set(part, offset);
    offset += part.length;
  }
  return result;
}
