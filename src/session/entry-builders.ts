/**
 * The objects `SessionManager` writes, with keys in exactly pi 1.6's order (REFERENCE §4.5),
 * so files stay byte-compatible. Undefined fields are left out, in memory as on disk.
 * @module
 */
import {
  type AgentMessage,
  type BranchSummaryEntry,
  type CompactionEntry,
  type ContentBlock,
  type ContextEditEntry,
  CURRENT_SESSION_VERSION,
  type CustomEntry,
  type CustomMessageEntry,
  type ImageContent,
  type LabelEntry,
  type MessageEntry,
  type ModelChangeEntry,
  type SessionHeader,
  type SessionInfoEntry,
  type SystemMessage,
  type TextContent,
  type ThinkingLevelChangeEntry,
  type Usage,
  type UsageEntry,
} from "../core/format/types.ts";

/** The fields every entry has. */
export interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** `value` without its undefined-valued keys (key order kept), as JSON.stringify would write it. */
function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}

/** A version 3 header: `type, version, id, timestamp, cwd, parentSession?`. */
export function sessionHeader(id: string, timestamp: string, cwd: string, parentSession?: string): SessionHeader {
  return defined({ type: "session" as const, version: CURRENT_SESSION_VERSION, id, timestamp, cwd, parentSession });
}

/** `type, id, parentId, timestamp, message` (spelled out: the commonest entry, made at every append). */
export function messageEntry(base: EntryBase, message: AgentMessage): MessageEntry {
  return { type: "message", id: base.id, parentId: base.parentId, timestamp: base.timestamp, message };
}

/** `…, thinkingLevel`. */
export function thinkingLevelChangeEntry(base: EntryBase, thinkingLevel: string): ThinkingLevelChangeEntry {
  return { type: "thinking_level_change", ...base, thinkingLevel };
}

/** `…, provider, modelId`. */
export function modelChangeEntry(base: EntryBase, provider: string, modelId: string): ModelChangeEntry {
  return { type: "model_change", ...base, provider, modelId };
}

/** `…, kind, provider, model, usage, note?`: pi writes `note` only when it is non-empty. */
export function usageEntry(base: EntryBase, kind: string, provider: string, model: string, usage: Usage, note?: string): UsageEntry {
  return note ? { type: "usage", ...base, kind, provider, model, usage, note } : { type: "usage", ...base, kind, provider, model, usage };
}

/** The fields of a compaction entry after the common ones. */
export interface CompactionFields {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
  systemMessage?: SystemMessage;
  retainedTail?: AgentMessage[];
}

/** `…, summary, firstKeptEntryId, tokensBefore, details, usage, fromHook, systemMessage?`, then `retainedTail` (the seeds' checkpoint field, which pi never writes). */
export function compactionEntry(base: EntryBase, f: CompactionFields): CompactionEntry {
  return defined({
    type: "compaction" as const,
    ...base,
    summary: f.summary,
    firstKeptEntryId: f.firstKeptEntryId,
    tokensBefore: f.tokensBefore,
    details: f.details,
    usage: f.usage,
    fromHook: f.fromHook,
    systemMessage: f.systemMessage,
    retainedTail: f.retainedTail,
  });
}

/** `…, fromId, summary, details, usage, fromHook`. */
export function branchSummaryEntry(
  base: EntryBase,
  fromId: string,
  summary: string,
  details?: unknown,
  usage?: Usage,
  fromHook?: boolean,
): BranchSummaryEntry {
  return defined({ type: "branch_summary" as const, ...base, fromId, summary, details, usage, fromHook });
}

/** `type, customType, data, id, parentId, timestamp`: pi puts the common fields last for extension entries. */
export function customEntry(base: EntryBase, customType: string, data?: unknown): CustomEntry {
  return defined({ type: "custom" as const, customType, data, ...base });
}

/** `type, customType, content, display, details, id, parentId, timestamp`. */
export function customMessageEntry(
  base: EntryBase,
  customType: string,
  content: string | (TextContent | ImageContent)[],
  display: boolean,
  details?: unknown,
): CustomMessageEntry {
  return defined({ type: "custom_message" as const, customType, content, display, details, ...base });
}

/** `…, name`. */
export function sessionInfoEntry(base: EntryBase, name: string): SessionInfoEntry {
  return { type: "session_info", ...base, name };
}

/** A cleared label (undefined) has no `label` key; `""` is kept as pi keeps it. */
export function labelEntry(base: EntryBase, targetId: string, label: string | undefined): LabelEntry {
  return defined({ type: "label" as const, ...base, targetId, label });
}

/** `…, targetId, replacement`. */
export function contextEditEntry(
  base: EntryBase,
  targetId: string,
  replacement: { content: string | ContentBlock[] } | null,
): ContextEditEntry {
  return { type: "context_edit", ...base, targetId, replacement };
}

/** One JSONL line (with its newline) per object. */
export function toJsonl(objects: Iterable<object>): string {
  let out = "";
  for (const object of objects) out += JSON.stringify(object) + "\n";
  return out;
}
