/**
 * Plain text about entries for the viewer: message text, one-line tool call summaries, the
 * sidebar row of an entry (pi's /tree wording) and what search looks in. Pure; entries are
 * untrusted JSON, so every field is checked before use.
 * @module
 */

export type Json = Record<string, unknown>;

/** An entry as read from the export: anything with an id, parsed from JSON. */
export interface ViewerEntry extends Json {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface ToolCallInfo {
  name: string;
  args: Json;
}

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string {
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

/** The message of a `message` entry, or undefined. */
export function messageOf(entry: ViewerEntry): Json | undefined {
  return entry.type === "message" && isObject(entry.message) ? entry.message : undefined;
}

/** The role of a `message` entry, or undefined. */
export function roleOf(entry: ViewerEntry): string | undefined {
  const role = messageOf(entry)?.role;
  return typeof role === "string" ? role : undefined;
}

/** Text blocks of message content, joined by newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === "text" && typeof block.text === "string") parts.push(block.text);
  }
  return parts.join("\n");
}

/** True when content has non-blank text. */
export function hasText(content: unknown): boolean {
  return contentText(content).trim() !== "";
}

/** Every tool call of the assistant messages in `entries`, by call id. */
export function collectToolCalls(entries: Iterable<ViewerEntry>): Map<string, ToolCallInfo> {
  const calls = new Map<string, ToolCallInfo>();
  for (const entry of entries) {
    const message = messageOf(entry);
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (isObject(block) && block.type === "toolCall" && typeof block.id === "string") {
        calls.set(block.id, { name: str(block.name), args: isObject(block.arguments) ? block.arguments : {} });
      }
    }
  }
  return calls;
}

/** One line: control characters as spaces, trimmed, clipped to `limit` characters. */
export function oneLine(text: string, limit = 200): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return flat.length > limit ? flat.slice(0, limit - 1) + "…" : flat;
}

/** `read src/a.ts:10-30`, `bash ls -la`, `grep {"pattern":"x"}`: a tool call in one line. */
export function toolCallLine(name: string, args: Json): string {
  const path = str(args.path ?? args.file_path);
  switch (name) {
    case "read": {
      const offset = typeof args.offset === "number" ? args.offset : undefined;
      const limit = typeof args.limit === "number" ? args.limit : undefined;
      const range = offset !== undefined || limit !== undefined ? `:${offset ?? 1}${limit !== undefined ? `-${(offset ?? 1) + limit - 1}` : ""}` : "";
      return `read ${path}${range}`;
    }
    case "write":
    case "edit":
    case "ls":
      return `${name} ${path || str(args.dir)}`.trim();
    case "bash":
      return `bash ${oneLine(str(args.command))}`;
    default: {
      const json = JSON.stringify(args) ?? "";
      return `${name} ${oneLine(json, 120)}`;
    }
  }
}

function compactTokens(n: unknown): string {
  const value = typeof n === "number" && Number.isFinite(n) ? n : 0;
  return value >= 1000 ? `${Math.round(value / 1000)}k` : String(value);
}

/** The sidebar text of an entry, after pi's /tree wording. */
export function rowText(entry: ViewerEntry, toolCalls: ReadonlyMap<string, ToolCallInfo>): string {
  const message = messageOf(entry);
  if (message) {
    const role = str(message.role);
    switch (role) {
      case "user":
        return `user: ${oneLine(contentText(message.content))}`;
      case "assistant": {
        const text = oneLine(contentText(message.content));
        if (text) return `assistant: ${text}`;
        if (message.stopReason === "aborted") return "assistant: (aborted)";
        if (message.errorMessage) return `assistant: (error) ${oneLine(str(message.errorMessage))}`;
        return "assistant: (no text)";
      }
      case "toolResult": {
        const call = toolCalls.get(str(message.toolCallId));
        return `[${call ? toolCallLine(call.name, call.args) : str(message.toolName) || "tool"}]`;
      }
      case "bashExecution":
        return `[bash]: ${oneLine(str(message.command))}`;
      case "branchSummary":
      case "compactionSummary":
        return `[${role === "branchSummary" ? "branch summary" : "compaction"}]: ${oneLine(str(message.summary))}`;
      case "custom":
        return `[${str(message.customType)}]: ${oneLine(contentText(message.content))}`;
      default:
        return `${role}: ${oneLine(contentText(message.content))}`;
    }
  }
  switch (entry.type) {
    case "compaction":
      return `[compaction: ${compactTokens(entry.tokensBefore)} tokens]`;
    case "branch_summary":
      return `[branch summary]: ${oneLine(str(entry.summary))}`;
    case "custom_message":
      return `[${str(entry.customType)}]: ${oneLine(contentText(entry.content))}`;
    case "model_change":
      return `[model: ${str(entry.modelId)}]`;
    case "thinking_level_change":
      return `[thinking: ${str(entry.thinkingLevel)}]`;
    case "label":
      return `[label: ${oneLine(str(entry.label)) || "(cleared)"}]`;
    case "session_info":
      return `[title: ${oneLine(str(entry.name)) || "(cleared)"}]`;
    case "custom":
      return `[custom: ${str(entry.customType)}]`;
    case "context_edit":
      return `[context ${entry.replacement === null ? "omit" : "replace"}: ${str(entry.targetId)}]`;
    case "usage":
      return `[usage: ${str(entry.kind)} ${str(entry.provider)}/${str(entry.model)}]`;
    default:
      return `[${str(entry.type)}]`;
  }
}

/** What search looks in: label, role or type, and the row text (lower case). */
export function searchText(entry: ViewerEntry, row: string, label: string | undefined): string {
  return [label ?? "", roleOf(entry) ?? entry.type, row].join(" ").toLowerCase();
}
