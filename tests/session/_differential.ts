/**
 * What the differential tests against pi 1.6's SessionManager share: a seeded generator,
 * random messages of every role, and entries, contexts, trees and files as comparable JSON
 * (ids mapped onto ours, times, which differ by design, left out).
 * @module
 */
import { readFileSync } from "node:fs";
import type { AgentMessage, SessionTreeNode } from "../../src/core/format/types.ts";
import { usage } from "./_fixtures.ts";

/** The reference is plain JavaScript; its objects are handled as JSON. */
// deno-lint-ignore no-explicit-any
export type Any = any;

/** pi 1.6.0's SessionManager module, or why it does not load here (the test then skips with that). */
export async function loadReference(): Promise<{ ref: Any; skip: string | false }> {
  // The package's "exports" hides dist/, so the reference is imported by path.
  const path = "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
  try {
    return { ref: await import(path), skip: false };
  } catch (error) {
    return { ref: undefined, skip: `the reference SessionManager does not load here (${(error as Error).message.split("\n")[0]})` };
  }
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const ID_KEYS = ["id", "parentId", "targetId", "firstKeptEntryId", "fromId"];

/** An entry as comparable JSON: ids mapped to ours, times (which differ by design) removed. Key order is kept. */
export function entryJson(entry: unknown, toOurs?: Map<string, string>): string {
  const o = JSON.parse(JSON.stringify(entry));
  for (const key of ID_KEYS) if (toOurs?.has(o[key])) o[key] = toOurs.get(o[key]);
  delete o.timestamp;
  if (o.systemMessage) delete o.systemMessage.timestamp;
  if (o.type === "session") {
    delete o.id;
    delete o.parentSession;
  }
  return JSON.stringify(o);
}

export function messagesJson(messages: AgentMessage[], toOurs?: Map<string, string>): string {
  return JSON.stringify(messages.map((m) => {
    const o = JSON.parse(JSON.stringify(m));
    delete o.timestamp;
    if (toOurs?.has(o.fromId)) o.fromId = toOurs.get(o.fromId);
    return o;
  }));
}

export function contextJson(context: Any, toOurs?: Map<string, string>): string {
  return JSON.stringify({ messages: messagesJson(context.messages, toOurs), thinkingLevel: context.thinkingLevel, model: context.model });
}

export function treeShape(nodes: SessionTreeNode[], toOurs?: Map<string, string>): unknown[] {
  return nodes.map((n) => [toOurs?.get(n.entry.id) ?? n.entry.id, n.label ?? null, treeShape(n.children, toOurs)]);
}

export function fileLines(path: string, toOurs?: Map<string, string>): string[] | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  return text.split("\n").filter(Boolean).map((line) => entryJson(JSON.parse(line), toOurs));
}

export function makeMessage(rand: () => number, n: number): AgentMessage {
  const roll = rand();
  const timestamp = 1_700_000_000_000 + n;
  if (roll < 0.3) return { role: "user", content: rand() < 0.5 ? `question ${n}` : [{ type: "text", text: `q ${n}` }], timestamp };
  if (roll < 0.55) {
    const model = rand() < 0.5 ? "claude" : "gpt";
    return {
      role: "assistant",
      content: [{ type: "text", text: `answer ${n}` }],
      api: "x",
      provider: model === "claude" ? "anthropic" : "openai",
      model,
      usage,
      stopReason: "stop",
      timestamp,
    };
  }
  if (roll < 0.65) return { role: "toolResult", toolCallId: `c${n}`, toolName: "read", content: [{ type: "text", text: `out ${n}` }], isError: false, timestamp };
  if (roll < 0.8) {
    const extra = rand() < 0.3 ? { sections: { s: rand() < 0.5 ? `sec ${n}` : null } } : rand() < 0.3 ? { toolsAdded: [{ name: `t${n % 3}`, description: "d", parameters: {} }] } : {};
    return { role: "system", content: rand() < 0.2 ? "" : `prompt ${n}`, ...extra, timestamp };
  }
  if (roll < 0.9) return { role: "bashExecution", command: "ls", output: `o${n}`, exitCode: n % 2, cancelled: false, truncated: false, excludeFromContext: rand() < 0.3, timestamp };
  return { role: "custom", customType: "ext", content: `custom ${n}`, display: true, timestamp };
}
