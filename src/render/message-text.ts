/**
 * Plain text of a message for people: text blocks, tool calls summarised, images noted.
 * Used by `context --format text`.
 * @module
 */
import type { AgentMessage } from "../core/format/types.ts";
import { bashExecutionText } from "../core/format/summary-text.ts";

/** Text blocks joined by newlines; other blocks as short markers. */
export function contentText(content: unknown, options: { thinking?: boolean } = {}): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "image") parts.push(`[image ${block.mimeType ?? ""}]`.replace(" ]", "]"));
    else if (block.type === "thinking" && options.thinking) parts.push(`[thinking] ${block.thinking ?? ""}`);
    else if (block.type === "toolCall") parts.push(`[tool call ${block.name}(${JSON.stringify(block.arguments ?? {})})]`);
  }
  return parts.join("\n");
}

/** The readable text of any message. */
export function messageText(message: AgentMessage, options: { thinking?: boolean } = {}): string {
  switch (message.role) {
    case "bashExecution":
      return bashExecutionText(message as never);
    case "branchSummary":
    case "compactionSummary":
      return String(message.summary ?? "");
    default:
      return contentText(message.content, options);
  }
}

/** A context's messages as plain text, each under a `--- role ---` line (`context --format text`). */
export function contextText(messages: readonly AgentMessage[]): string {
  return messages.map((message) => `--- ${message.role} ---\n${messageText(message)}\n`).join("\n");
}
