/**
 * What a provider sees: pi's extra roles become user messages (summaries wrapped in
 * pi's fixed texts, shell runs rendered), standard roles pass through, unknown roles drop.
 * @module
 */
import type { AgentMessage, BashExecutionMessage, LlmMessage } from "../format/types.ts";
import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  bashExecutionText,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
} from "../format/summary-text.ts";

function userText(text: string, timestamp: number): LlmMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

function convertOne(m: AgentMessage): LlmMessage | undefined {
  switch (m.role) {
    case "bashExecution":
      return m.excludeFromContext ? undefined : userText(bashExecutionText(m as BashExecutionMessage), m.timestamp as number);
    case "custom":
      return {
        role: "user",
        content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content,
        timestamp: m.timestamp,
      } as LlmMessage;
    case "branchSummary":
      return userText(BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX, m.timestamp as number);
    case "compactionSummary":
      return userText(COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX, m.timestamp as number);
    case "system":
    case "user":
    case "assistant":
    case "toolResult":
      return m as LlmMessage;
    default:
      return undefined;
  }
}

/**
 * @example
 * ```ts
 * convertToLlm([{ role: "branchSummary", summary: "s", fromId: "x", timestamp: 1 }])[0].role; // "user"
 * ```
 */
export function convertToLlm(messages: readonly AgentMessage[]): LlmMessage[] {
  const result: LlmMessage[] = [];
  for (const message of messages) {
    const converted = convertOne(message);
    if (converted) result.push(converted);
  }
  return result;
}
