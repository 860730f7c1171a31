/**
 * ccusage-style billing blocks: usage cut into 5-hour windows. A block starts at the (UTC) hour
 * of the first activity after the previous block ended, so windows follow each other with gaps
 * only where nothing happened. The block that is still open has a burn rate and a projection to
 * its end. Every entry counts once, as in `stats`.
 * @module
 */
import { addRowAt, rowKey, rowTime } from "../digest/usage-state.ts";
import { roundCost, roundCosts } from "../info/round-cost.ts";
import { emptyUsage, type UsageTotals } from "../info/usage-totals.ts";
import { attributeUsage, type UsageSession } from "./attribution.ts";

const HOUR = 3600e3;

/** How to cut and what to include. */
export interface BlocksOptions {
  /** The current time, epoch ms: which block is active, and how much of it is left. */
  now: number;
  /** Block length in hours (5, as the providers' usage windows). */
  hours?: number;
  /** Which sessions' entries count; every session still takes part in attribution. */
  inScope?: (session: UsageSession) => boolean;
  /** Keep entries at or after this time only. */
  since?: (ms: number) => boolean;
}

/** Tokens per minute and dollars per hour between the block's first and last activity. */
export interface BurnRate {
  tokensPerMinute: number;
  costPerHour: number;
}

/** One window: its bounds, activity, totals and, when active, burn rate and projection. */
export interface UsageBlock extends UsageTotals {
  start: string;
  end: string;
  firstActivity: string;
  lastActivity: string;
  active: boolean;
  entries: number;
  sessions: number;
  models: string[];
  /** Only for the active block, once it has activity spread over time. */
  burnRate: BurnRate | null;
  /** What the active block will hold at its end at the current burn rate. */
  projection: { totalTokens: number; cost: number } | null;
}

interface Open {
  startMs: number;
  firstMs: number;
  lastMs: number;
  totals: UsageTotals;
  entries: number;
  sessions: Set<string>;
  models: string[];
}

/**
 * The blocks of `sessions`, oldest first.
 *
 * @example
 * ```ts
 * usageBlocks([], { now: Date.now() }); // []
 * ```
 */
export function usageBlocks(sessions: readonly UsageSession[], options: BlocksOptions): UsageBlock[] {
  const { now, inScope = () => true, since } = options;
  const length = (options.hours ?? 5) * HOUR;
  const rows: { ms: number; session: UsageSession; i: number }[] = [];
  attributeUsage(sessions, (session, i) => {
    if (!inScope(session)) return;
    const ms = rowTime(session.usage, i);
    if (Number.isNaN(ms) || (since && !since(ms))) return;
    rows.push({ ms, session, i });
  });
  rows.sort((a, b) => a.ms - b.ms);
  const open: Open[] = [];
  for (const { ms, session, i } of rows) {
    let block = open[open.length - 1];
    if (!block || ms >= block.startMs + length) {
      block = { startMs: Math.floor(ms / HOUR) * HOUR, firstMs: ms, lastMs: ms, totals: emptyUsage(), entries: 0, sessions: new Set(), models: [] };
      open.push(block);
    }
    block.lastMs = ms;
    block.entries++;
    block.sessions.add(session.path);
    addRowAt(block.totals, session.usage, i);
    const model = rowKey(session.usage, i);
    if (!block.models.includes(model)) block.models.push(model);
  }
  return open.map((b) => finish(b, now, length));
}

function finish(b: Open, now: number, length: number): UsageBlock {
  const endMs = b.startMs + length;
  const active = now >= b.startMs && now < endMs;
  const minutes = (b.lastMs - b.firstMs) / 60e3;
  const burnRate = active && minutes > 0 ? { tokensPerMinute: b.totals.totalTokens / minutes, costPerHour: b.totals.cost.total / (minutes / 60) } : null;
  const left = (endMs - now) / 60e3;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    start: iso(b.startMs),
    end: iso(endMs),
    firstActivity: iso(b.firstMs),
    lastActivity: iso(b.lastMs),
    active,
    entries: b.entries,
    sessions: b.sessions.size,
    models: b.models,
    ...roundCosts(b.totals),
    burnRate: burnRate && { tokensPerMinute: Math.round(burnRate.tokensPerMinute), costPerHour: roundCost(burnRate.costPerHour) },
    projection: burnRate && {
      totalTokens: Math.round(b.totals.totalTokens + burnRate.tokensPerMinute * left),
      cost: roundCost(b.totals.cost.total + (burnRate.costPerHour * left) / 60),
    },
  };
}
