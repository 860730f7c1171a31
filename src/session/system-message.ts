/**
 * The system message a compaction stores (pi 1.6): every system message of the context
 * replayed into one, so the compacted context still starts with the current prompt and tools.
 * @module
 */
import type { AgentMessage, SystemMessage } from "../core/format/types.ts";

interface NamedTool {
  name: string;
  [key: string]: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((block) => block?.type === "text").map((block) => block.text).join("\n");
}

function toolsOf(value: unknown): NamedTool[] {
  return Array.isArray(value) ? value : [];
}

/**
 * One system message equivalent to all of those in `messages`: texts joined by a blank line,
 * `sections` patched by name (null removes), tools added and removed by name, and the first
 * one's timestamp. Undefined when there is nothing to replay.
 *
 * @example
 * ```ts
 * currentSystemMessage([{ role: "system", content: "a", timestamp: 1 }, { role: "system", content: "b", timestamp: 2 }]);
 * // { role: "system", content: "a\n\nb", timestamp: 1 }
 * ```
 */
export function currentSystemMessage(messages: readonly AgentMessage[]): SystemMessage | undefined {
  const texts: string[] = [];
  const sections = new Map<string, unknown>();
  const tools = new Map<string, NamedTool>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (message.role !== "system") continue;
    timestamp ??= message.timestamp as number | undefined;
    const text = textOf(message.content);
    if (text.length > 0) texts.push(text);
    const patch = message.sections;
    if (typeof patch === "object" && patch !== null) {
      for (const [name, value] of Object.entries(patch)) {
        if (value === null) sections.delete(name);
        else sections.set(name, value);
      }
    }
    for (const tool of toolsOf(message.toolsRemoved)) tools.delete(tool.name);
    for (const tool of toolsOf(message.toolsAdded)) tools.set(tool.name, tool);
  }
  if (timestamp === undefined && tools.size === 0) return undefined;
  return {
    role: "system",
    content: texts.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.size > 0 ? { toolsAdded: [...tools.values()] } : {}),
    timestamp: timestamp ?? 0,
  };
}
