/**
 * The model context at an entry: context entries turned into messages, context edits
 * applied (latest per target wins), model and thinking level from the full path.
 * @module
 */
import type {
  AgentMessage,
  ContextEditEntry,
  MessageEntry,
  ModelChangeEntry,
  ModelRef,
  SessionContext,
  SessionEntry,
  SessionProjection,
  ThinkingLevelChangeEntry,
} from "../format/types.ts";
import { buildSessionPath, contextEntriesOfPath } from "./build-context-entries.ts";
import { compactionHeadMessages, retainedTailOf, sessionEntryToContextMessages, withContent } from "./entry-messages.ts";

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/** Thinking level and model in force at the end of `path`. */
export function contextSettings(path: readonly SessionEntry[]): { thinkingLevel: string; model: ModelRef | null } {
  let thinkingLevel = "off";
  let model: ModelRef | null = null;
  for (const entry of path) {
    if (entry.type === "thinking_level_change") {
      thinkingLevel = (entry as ThinkingLevelChangeEntry).thinkingLevel;
    } else if (entry.type === "model_change") {
      const e = entry as ModelChangeEntry;
      model = { provider: e.provider, modelId: e.modelId };
    } else if (entry.type === "message") {
      const message = (entry as MessageEntry).message;
      if (message?.role === "assistant") model = { provider: message.provider, modelId: message.model };
    }
  }
  return { thinkingLevel, model };
}

function applyEdit(messages: AgentMessage[], edit: ContextEditEntry): AgentMessage[] {
  const replacement = edit.replacement;
  if (replacement === null) return [];
  if (typeof replacement !== "object") return messages;
  return messages.map((message) => {
    if (!EDITABLE_ROLES.has(message.role)) return message;
    const content = (message.role === "assistant" || message.role === "toolResult") && typeof replacement.content === "string"
      ? [{ type: "text", text: replacement.content }]
      : replacement.content;
    return { ...message, content } as AgentMessage;
  });
}

/** The messages of one context entry with its latest edit (if any) applied. */
export function projectContextEntry(entry: SessionEntry, edit: ContextEditEntry | undefined): AgentMessage[] {
  if (!edit) return sessionEntryToContextMessages(entry);
  if (entry.type === "compaction") {
    // An edit acts on the summary part only; a checkpoint's retained tail is left alone.
    const tail = retainedTailOf(entry as never) ?? [];
    return [...applyEdit(compactionHeadMessages(entry as never), edit), ...tail.map(withContent)];
  }
  return applyEdit(sessionEntryToContextMessages(entry), edit);
}

/** Projection of a known path; the fast reader uses it on a partially parsed file. */
export function projectPath(path: readonly SessionEntry[]): SessionProjection {
  const { thinkingLevel, model } = contextSettings(path);
  const contextEntries = contextEntriesOfPath(path);
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of contextEntries) {
    if (entry.type === "context_edit") edits.set((entry as ContextEditEntry).targetId, entry as ContextEditEntry);
  }
  // Only the newest compaction (index 0) speaks; an older one inside the kept range is silent.
  const entries = contextEntries.map((sourceEntry, index) => ({
    sourceEntry,
    messages: sourceEntry.type === "compaction" && index > 0 ? [] : projectContextEntry(sourceEntry, edits.get(sourceEntry.id)),
  }));
  return { entries, messages: entries.flatMap((e) => e.messages), thinkingLevel, model };
}

/** Provenance-preserving projection: each context entry with the messages it produced. */
export function buildSessionProjection(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionProjection {
  return projectPath(buildSessionPath(entries, leafId, byId));
}

/**
 * The context pi would send at `leafId`: messages, thinking level and model.
 *
 * @example
 * ```ts
 * buildSessionContext([]); // { messages: [], thinkingLevel: "off", model: null }
 * ```
 */
export function buildSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionContext {
  const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
  return { messages, thinkingLevel, model };
}
