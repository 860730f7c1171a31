/**
 * Token and cost totals as pi 1.6's /session counts them: every entry of the file (all
 * branches, compacted history too): assistant usage, tool-result usage, usage on
 * compactions and branch summaries, and `usage` entries.
 * @module
 */
import type { MessageEntry, SessionEntry, Usage, UsageEntry } from "../format/types.ts";

export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

/** All zeros. */
export function emptyUsage(): UsageTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** Adds `usage` (possibly malformed: missing fields count as 0) into `totals`. */
export function addUsage(totals: UsageTotals, usage: Partial<Usage> | undefined): void {
  if (!usage || typeof usage !== "object") return;
  totals.input += num(usage.input);
  totals.output += num(usage.output);
  totals.cacheRead += num(usage.cacheRead);
  totals.cacheWrite += num(usage.cacheWrite);
  // pi's /session "Total" is the sum of the four counts, not the providers' totalTokens.
  totals.totalTokens += num(usage.input) + num(usage.output) + num(usage.cacheRead) + num(usage.cacheWrite);
  const cost = (usage.cost ?? {}) as Partial<Usage["cost"]>;
  totals.cost.input += num(cost.input);
  totals.cost.output += num(cost.output);
  totals.cost.cacheRead += num(cost.cacheRead);
  totals.cost.cacheWrite += num(cost.cacheWrite);
  totals.cost.total += num(cost.total);
}

/** The usage an entry carries and the key pi files its cost under, or undefined. */
export function entryUsage(entry: SessionEntry): { usage: Partial<Usage>; key: string } | undefined {
  if (entry.type === "message") {
    const message = (entry as MessageEntry).message;
    if (!message || typeof message !== "object") return undefined;
    if (message.role === "assistant" && message.usage) {
      return { usage: message.usage, key: `${message.provider}/${message.responseModel ?? message.model}` };
    }
    if (message.role === "toolResult" && message.usage) return { usage: message.usage as Usage, key: "Tools/summaries" };
    return undefined;
  }
  if (entry.type === "usage") {
    const e = entry as UsageEntry;
    return e.usage ? { usage: e.usage, key: `${e.provider}/${e.model}` } : undefined;
  }
  if (entry.type === "compaction" || entry.type === "branch_summary") {
    const usage = (entry as { usage?: Usage }).usage;
    return usage ? { usage, key: "Tools/summaries" } : undefined;
  }
  return undefined;
}

/**
 * Totals over `entries`, and cost per key (`provider/model`, or `Tools/summaries`).
 *
 * @example
 * ```ts
 * sessionUsage([]).totals.totalTokens; // 0
 * ```
 */
export function sessionUsage(entries: readonly SessionEntry[]): { totals: UsageTotals; byKey: Map<string, UsageTotals> } {
  const totals = emptyUsage();
  const byKey = new Map<string, UsageTotals>();
  for (const entry of entries) {
    const found = entryUsage(entry);
    if (!found) continue;
    addUsage(totals, found.usage);
    let bucket = byKey.get(found.key);
    if (!bucket) byKey.set(found.key, bucket = emptyUsage());
    addUsage(bucket, found.usage);
  }
  return { totals, byKey };
}
