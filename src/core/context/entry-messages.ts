/**
 * What one entry contributes to the model context, before context edits. Message
 * objects are built with the same keys as pi's, so results compare deep-equal.
 * @module
 */
import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  CustomMessageEntry,
  MessageEntry,
  SessionEntry,
} from "../format/types.ts";

function ms(timestamp: string): number {
  return new Date(timestamp).getTime();
}

/** Patches null or missing content the way pi does: "" for system, [] for the main roles. */
export function withContent(message: AgentMessage): AgentMessage {
  if (message.content != null) return message;
  if (message.role === "system") return { ...message, content: "" };
  if (message.role === "user" || message.role === "assistant" || message.role === "toolResult") {
    return { ...message, content: [] } as AgentMessage;
  }
  return message;
}

/** The retained tail of a checkpoint compaction, or undefined when it has none (or a malformed one). */
export function retainedTailOf(entry: CompactionEntry): AgentMessage[] | undefined {
  const tail = entry.retainedTail;
  return Array.isArray(tail) ? tail.filter((m) => typeof m === "object" && m !== null) : undefined;
}

/**
 * The summary part of a compaction: [systemMessage?, compactionSummary].
 */
export function compactionHeadMessages(entry: CompactionEntry): AgentMessage[] {
  const summary: AgentMessage = {
    role: "compactionSummary",
    summary: entry.summary,
    tokensBefore: entry.tokensBefore,
    timestamp: ms(entry.timestamp),
  };
  return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
}

/**
 * The messages an entry adds to the context: a message entry its message, a custom_message
 * a `custom` message, a branch summary (when non-empty) and a compaction their summary
 * messages (plus the retained tail of a checkpoint compaction); everything else nothing.
 *
 * @example
 * ```ts
 * sessionEntryToContextMessages({ type: "model_change", id: "a", parentId: null,
 *   timestamp: "2024-01-01T00:00:00Z", provider: "p", modelId: "m" }); // []
 * ```
 */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      const message = (entry as MessageEntry).message;
      return typeof message === "object" && message !== null ? [withContent(message)] : [];
    }
    case "custom_message": {
      const e = entry as CustomMessageEntry;
      return [{
        role: "custom",
        customType: e.customType,
        content: e.content ?? [],
        display: e.display,
        details: e.details,
        timestamp: ms(e.timestamp),
      }];
    }
    case "branch_summary": {
      const e = entry as BranchSummaryEntry;
      return e.summary ? [{ role: "branchSummary", summary: e.summary, fromId: e.fromId, timestamp: ms(e.timestamp) }] : [];
    }
    case "compaction": {
      const e = entry as CompactionEntry;
      const tail = retainedTailOf(e);
      const head = compactionHeadMessages(e);
      return tail ? [...head, ...tail.map(withContent)] : head;
    }
    default:
      return [];
  }
}
