/**
 * `info`: what pi's /session shows about one session (counts over every entry, all branches and
 * compacted history), plus leaves, labels, models, inherited usage and the problems found reading it.
 * @module
 */
import type { MessageEntry, ToolCall } from "../core/format/types.ts";
import type { ReadIssue } from "../core/read/issue.ts";
import { roundCosts } from "../core/info/round-cost.ts";
import { listingInfo, listingOfEntries } from "../core/info/session-info.ts";
import { sessionUsage, type UsageTotals } from "../core/info/usage-totals.ts";
import type { QueryEnv } from "./env.ts";
import { inheritedUsage } from "./inherited-usage.ts";
import { LEAN_READ } from "../core/read/lean-entry.ts";
import { loadSession } from "./load.ts";
import { GarbagePacer } from "../io/garbage-pacer.ts";

export interface InfoOptions {
  /** A session reference: path, id, unique id prefix, or `@` (the env cwd's most recent). */
  ref: string;
}

/** What `info --json` prints (docs/schema/info.schema.json), without `schemaVersion`. */
export interface InfoJson {
  path: string;
  id: string;
  version: number;
  cwd: string;
  name: string | null;
  parentSession: string | null;
  created: string | null;
  modified: string | null;
  entryCount: number;
  entryTypes: Record<string, number>;
  messageRoles: Record<string, number>;
  leafId: string | null;
  leafCount: number;
  labelCount: number;
  usage: UsageTotals;
  /** The part of `usage` copied from the parent session (fork or clone); null without a parent. */
  inheritedUsage: { parentSession: string; usage: UsageTotals | null } | null;
  models: string[];
  problems: ReadIssue[];
}

export interface InfoResult {
  value: InfoJson;
  /** Figures the text view adds: unrounded totals, cost per provider/model, tool calls, messages. */
  usage: UsageTotals;
  byKey: Map<string, UsageTotals>;
  inherited: { parentSession: string; usage: UsageTotals | null } | null;
  toolCalls: number;
  messageCount: number;
  /** True when the file is an older version, read as the current one. */
  migrated: boolean;
}

function count(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** The facts of one session. */
export async function sessionInfo(env: QueryEnv, options: InfoOptions): Promise<InfoResult> {
  // Lean entries: counts, usage, models and the tree without the texts (bounded by the entry count).
  // The parse leaves its garbage faster than it is collected: a cheap collection every 16 MB
  // read keeps the peak where it was when the skim's garbage made collections come on their own.
  const pacer = new GarbagePacer({ everyAmount: 16 * 1024 * 1024, amountYoung: true });
  const { path, file, tree } = await loadSession(env, options.ref, LEAN_READ, (bytes) => pacer.add(bytes));
  // created and modified as `list` gives them, folded from the entries just read.
  const mtimeMs = (await env.fs.stat(path))?.mtimeMs ?? 0;
  const listed = listingInfo(path, file.header as unknown as Record<string, unknown>, listingOfEntries(file.entries), mtimeMs);
  const entryTypes: Record<string, number> = {};
  const messageRoles: Record<string, number> = {};
  let toolCalls = 0;
  const models: string[] = [];
  let messageCount = 0;
  for (const entry of file.entries) {
    count(entryTypes, String(entry.type));
    if (entry.type !== "message") continue;
    messageCount++;
    const message = (entry as MessageEntry).message;
    if (!message || typeof message !== "object") continue;
    count(messageRoles, String(message.role));
    if (message.role === "assistant") {
      const key = `${message.provider}/${message.responseModel ?? message.model}`;
      if (!models.includes(key)) models.push(key);
      if (Array.isArray(message.content)) toolCalls += (message.content as ToolCall[]).filter((b) => b?.type === "toolCall").length;
    }
  }
  const { totals, byKey } = sessionUsage(file.entries);
  const inherited = await inheritedUsage(env, file.header!, file.entries);
  const problems = [...file.issues, ...tree.findIssues(file.entryLines)];
  const iso = (d: Date | undefined) => (d && !Number.isNaN(d.getTime()) ? d.toISOString() : null);
  const value: InfoJson = {
    path,
    id: file.header!.id,
    version: file.version,
    cwd: typeof file.header!.cwd === "string" ? file.header!.cwd : "",
    name: tree.sessionName ?? null,
    parentSession: file.header!.parentSession ?? null,
    created: iso(listed.created),
    modified: iso(listed.modified),
    entryCount: file.entries.length,
    entryTypes,
    messageRoles,
    leafId: tree.leafId,
    leafCount: tree.leaves().length,
    labelCount: tree.labels.size,
    usage: roundCosts(totals),
    inheritedUsage: inherited?.usage ? { ...inherited, usage: roundCosts(inherited.usage) } : inherited,
    models,
    problems,
  };
  return { value, usage: totals, byKey, inherited, toolCalls, messageCount, migrated: file.migrated };
}
