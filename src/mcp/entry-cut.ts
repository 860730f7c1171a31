/**
 * read_session's cuts: tool results, bash output and thinking kept to their budgets (defaults
 * 2,000 and 500 characters), each cut text ending in a mark that says how much was left out and
 * how to get it whole. Pure.
 * @module
 */
import type { Params } from "./tools.ts";

type Json = Record<string, unknown>;

function cutBlockText(block: Json, key: string, max: number, hint: string): { block: Json; cut: number } {
  const text = block[key];
  if (typeof text !== "string" || text.length <= max) return { block, cut: 0 };
  const keep = Math.max(0, max);
  return { block: { ...block, [key]: `${text.slice(0, keep)}…[cut: ${text.length - keep} more chars; ${hint}]` }, cut: 1 };
}

/** An entry with tool outputs and thinking cut to their budgets (read_session, unless `full`). */
export function cutEntry(params: Params, entry: unknown): { value: unknown; cut: number } {
  if (params.full === true) return { value: entry, cut: 0 };
  const e = entry as Json;
  const message = e.message as Json | undefined;
  if (e.type !== "message" || !message || typeof message !== "object") return { value: entry, cut: 0 };
  const toolMax = typeof params.toolOutputChars === "number" ? params.toolOutputChars : 2000;
  const thinkingMax = typeof params.thinkingChars === "number" ? params.thinkingChars : 500;
  const hint = "pass full: true (and a larger maxChars) for the whole text";
  let cut = 0;
  let out: Json = message;
  if (message.role === "toolResult" && Array.isArray(message.content)) {
    const content = message.content.map((b: Json) => {
      if (b?.type !== "text") return b;
      const r = cutBlockText(b, "text", toolMax, hint);
      cut += r.cut;
      return r.block;
    });
    out = { ...message, content };
  } else if (message.role === "bashExecution") {
    const r = cutBlockText(message, "output", toolMax, hint);
    cut += r.cut;
    out = r.block;
  } else if (message.role === "assistant" && Array.isArray(message.content)) {
    const content = message.content.map((b: Json) => {
      if (b?.type !== "thinking") return b;
      const r = cutBlockText(b, "thinking", thinkingMax, hint);
      cut += r.cut;
      return r.block;
    });
    out = { ...message, content };
  }
  return { value: cut === 0 ? entry : { ...e, message: out }, cut };
}
