/**
 * The searchable texts of an entry: what people wrote and read (user, assistant, tool and
 * bash output, custom messages), thinking apart (searched only on request), and the names,
 * labels and summaries pi shows. System prompts are left out: they repeat in every session.
 * @module
 */
import { isObject } from "../read/decode-line.ts";

/** Roles a hit can have; `--role` filters on them. */
export const DOC_ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom", "summary", "label", "name"] as const;

/** One searchable text of an entry. */
export interface EntryDoc {
  role: string;
  part: "text" | "thinking";
  text: string;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => isObject(b) && b.type === "text" && typeof b.text === "string").map((b) => b.text).join("\n");
}

function assistantDocs(content: unknown): EntryDoc[] {
  if (!Array.isArray(content)) return [];
  const text: string[] = [];
  const thinking: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") text.push(block.text);
    else if (block.type === "thinking" && typeof block.thinking === "string") thinking.push(block.thinking);
    else if (block.type === "toolCall" && typeof block.name === "string") text.push(`${block.name} ${JSON.stringify(block.arguments ?? {})}`);
  }
  const docs: EntryDoc[] = [];
  if (text.length) docs.push({ role: "assistant", part: "text", text: text.join("\n") });
  if (thinking.length) docs.push({ role: "assistant", part: "thinking", text: thinking.join("\n") });
  return docs;
}

function messageDocs(message: Record<string, unknown>): EntryDoc[] {
  const role = message.role;
  if (role === "assistant") return assistantDocs(message.content);
  if (role === "system" || typeof role !== "string") return [];
  let text: string;
  if (role === "bashExecution") text = [message.command, message.output].filter((s) => typeof s === "string" && s !== "").join("\n");
  else if (role === "branchSummary" || role === "compactionSummary") return textDoc("summary", message.summary);
  else text = contentText(message.content);
  // Old files call custom messages `hookMessage`.
  return textDoc(role === "hookMessage" ? "custom" : role, text);
}

function textDoc(role: string, text: unknown): EntryDoc[] {
  return typeof text === "string" && text.trim() !== "" ? [{ role, part: "text", text }] : [];
}

/**
 * The searchable texts of one parsed entry.
 *
 * @example
 * ```ts
 * entryDocs({ type: "label", id: "a", parentId: null, timestamp: "t", targetId: "b", label: "good" });
 * // [{ role: "label", part: "text", text: "good" }]
 * ```
 */
export function entryDocs(entry: Record<string, unknown>): EntryDoc[] {
  switch (entry.type) {
    case "message":
      return isObject(entry.message) ? messageDocs(entry.message) : [];
    case "custom_message":
      return textDoc("custom", contentText(entry.content));
    case "compaction":
    case "branch_summary":
      return textDoc("summary", entry.summary);
    case "label":
      return textDoc("label", entry.label);
    case "session_info":
      return textDoc("name", entry.name);
    default:
      return [];
  }
}
