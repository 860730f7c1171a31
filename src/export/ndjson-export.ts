/**
 * NDJSON for analytics: one flat row per entry (session, entry, type, role, model, time,
 * tokens, cost, tool, text) with stable snake_case columns, ready for DuckDB's
 * `read_json_auto`, ClickHouse's `JSONEachRow` or a BigQuery load job. Token columns follow
 * `stats`: summing them over a file gives its usage totals.
 * @module
 */
import type { SessionEntry } from "../core/format/types.ts";
import { addUsage, emptyUsage, entryUsage } from "../core/info/usage-totals.ts";
import { contentText, messageText } from "../render/message-text.ts";
import type { DataExportOptions } from "./jsonl-export.ts";

/** One row; null where a column does not apply to the entry. */
export interface NdjsonRow {
  session_id: string;
  cwd: string;
  entry_id: string;
  parent_id: string | null;
  type: string;
  role: string | null;
  model: string | null;
  provider: string | null;
  timestamp: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
  total_tokens: number | null;
  cost: number | null;
  tool_name: string | null;
  text: string | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function strOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function modelOf(entry: Json, message: Json | undefined): { model: string | null; provider: string | null } {
  if (message?.role === "assistant") return { model: strOrNull(message.responseModel ?? message.model), provider: strOrNull(message.provider) };
  if (entry.type === "model_change") return { model: strOrNull(entry.modelId), provider: strOrNull(entry.provider) };
  if (entry.type === "usage") return { model: strOrNull(entry.model), provider: strOrNull(entry.provider) };
  return { model: null, provider: null };
}

function toolNameOf(message: Json | undefined): string | null {
  if (!message) return null;
  if (message.role === "toolResult") return strOrNull(message.toolName);
  if (message.role === "bashExecution") return "bash";
  if (message.role === "assistant" && Array.isArray(message.content)) {
    const names = message.content.filter((b) => isObject(b) && b.type === "toolCall").map((b) => String((b as Json).name));
    return names.length > 0 ? names.join(",") : null;
  }
  return null;
}

function textOf(entry: Json, message: Json | undefined): string | null {
  if (message) return messageText(message as never) || null;
  switch (entry.type) {
    case "compaction":
    case "branch_summary":
      return strOrNull(entry.summary);
    case "custom_message":
      return contentText(entry.content) || null;
    case "label":
      return strOrNull(entry.label);
    case "session_info":
      return strOrNull(entry.name);
    default:
      return null;
  }
}

/**
 * The row of one entry.
 *
 * @example
 * ```ts
 * ndjsonRow({ id: "s", cwd: "/w" }, { type: "label", id: "a", parentId: null, timestamp: "t", targetId: "b", label: "x" } as never).text; // "x"
 * ```
 */
export function ndjsonRow(session: { id: string; cwd: string }, entry: SessionEntry): NdjsonRow {
  const e = entry as unknown as Json;
  const message = entry.type === "message" && isObject(e.message) ? e.message : undefined;
  const found = entryUsage(entry);
  const usage = found ? emptyUsage() : undefined;
  if (found && usage) addUsage(usage, found.usage);
  return {
    session_id: session.id,
    cwd: session.cwd,
    entry_id: String(entry.id),
    parent_id: strOrNull(entry.parentId),
    type: String(entry.type),
    role: strOrNull(message?.role),
    ...modelOf(e, message),
    timestamp: strOrNull(entry.timestamp),
    input_tokens: usage?.input ?? null,
    output_tokens: usage?.output ?? null,
    cache_read_tokens: usage?.cacheRead ?? null,
    cache_write_tokens: usage?.cacheWrite ?? null,
    total_tokens: usage?.totalTokens ?? null,
    cost: usage?.cost.total ?? null,
    tool_name: toolNameOf(message),
    text: textOf(e, message),
  };
}

/** One row per kept entry, in file order. */
export async function* ndjsonExport(options: DataExportOptions): AsyncIterable<string> {
  const header = options.redactor ? options.redactor.value(options.source.header) : options.source.header;
  const session = { id: String(header.id), cwd: String(header.cwd ?? "") };
  for await (const entry of options.source.entries(options.keep)) {
    yield JSON.stringify(ndjsonRow(session, options.redactor ? options.redactor.value(entry) : entry)) + "\n";
  }
}
