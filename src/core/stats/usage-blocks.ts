/**
 * ccusage-style billing blocks: usage cut into 5-hour windows. A block starts at the (UTC) hour
 * of the first activity after the previous block ended, so windows follow each other with gaps
 * only where nothing happened. The block that is still open has a burn rate and a projection to
 * its end. Every entry counts once, as in `stats`.
 * @module
 */
import { rowKey, rowTime } from "../digest/usage-state.ts";
import { roundCost, roundCosts } from "../info/round-cost.ts";
import type { UsageTotals } from "../info/usage-totals.ts";
import { attributionOrder, UsageAttribution, type UsageSession } from "./attribution.ts";
import { ExactTotals, RowLimbs, type SavedTotals } from "./exact-totals.ts";

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

/** The activity of one hour (UTC) as rows come in attribution order, or of a block as its hours are gathered into it. */
interface Hour {
  startMs: number;
  firstMs: number;
  lastMs: number;
  totals: ExactTotals;
  entries: number;
  sessions: Set<string>;
  /** Each model's first row: its time, then its place among every row added. */
  models: Map<string, [ms: number, seq: number]>;
}

/**
 * The hours of a `BlocksAggregator` once every session went by (`save`): what its blocks are
 * made from, at any time. Each hour as its start, first and last activity, totals, entries, the
 * sessions active in it, and each model's first row (time, and place among the rows added).
 */
export type SavedBlocks = [startMs: number, firstMs: number, lastMs: number, totals: SavedTotals, entries: number, sessions: string[], models: [model: string, ms: number, seq: number][]][];

/**
 * The blocks of sessions handed on one at a time in attribution order, every session once: each
 * row a session holds first is added to its hour at once, and nothing of the session is kept but
 * its path. Blocks are whole hours (they start at an hour and last whole hours), so the hours,
 * taken in order, cut into the same blocks as the rows would; the sums are exact (ExactTotals),
 * so they do not depend on the order the rows came in, and a block's models are in the order of
 * their first rows by time (ties by the order rows came), as rows sorted by time give them.
 *
 * @example
 * ```ts
 * const blocks = new BlocksAggregator({ now: Date.now() });
 * for (const session of attributionOrder(sessions)) blocks.add(session);
 * blocks.blocks(); // oldest first
 * ```
 */
export class BlocksAggregator {
  readonly #options: BlocksOptions;
  readonly #attribution = new UsageAttribution();
  readonly #hours = new Map<number, Hour>();
  readonly #row = new RowLimbs();
  #seq = 0;
  readonly #owned: (session: UsageSession, i: number) => void;

  constructor(options: BlocksOptions) {
    this.#options = options;
    this.#owned = (session, i) => this.#add(session, i);
  }

  /** Adds the rows `session` holds first; call in attribution order. */
  add(session: UsageSession): void {
    this.#attribution.add(session, this.#owned);
  }

  #add(session: UsageSession, i: number): void {
    const { inScope, since } = this.#options;
    if (inScope && !inScope(session)) return;
    const ms = rowTime(session.usage, i);
    if (Number.isNaN(ms) || (since && !since(ms))) return;
    const startMs = Math.floor(ms / HOUR) * HOUR;
    let hour = this.#hours.get(startMs);
    if (!hour) this.#hours.set(startMs, hour = { startMs, firstMs: ms, lastMs: ms, totals: new ExactTotals(), entries: 0, sessions: new Set(), models: new Map() });
    hour.firstMs = Math.min(hour.firstMs, ms);
    hour.lastMs = Math.max(hour.lastMs, ms);
    hour.entries++;
    hour.sessions.add(session.path);
    hour.totals.add(this.#row.read(session.usage, i));
    const seq = this.#seq++;
    const model = rowKey(session.usage, i);
    const first = hour.models.get(model);
    if (!first || ms < first[0]) hour.models.set(model, [ms, seq]);
  }

  /** The hours, to make the same blocks again later (`restored`), at another time. */
  save(): SavedBlocks {
    return [...this.#hours.values()].map((h) => [h.startMs, h.firstMs, h.lastMs, h.totals.save(), h.entries, [...h.sessions], [...h.models].map(([model, [ms, seq]]) => [model, ms, seq])]);
  }

  /**
   * An aggregator holding the hours `save` gave, for `options` (its `now` may differ): its blocks
   * are those of the aggregator saved, at that time; no session is to be added to it. Throws
   * `TypeError` for anything `save` cannot have made.
   */
  static restored(options: BlocksOptions, saved: unknown): BlocksAggregator {
    if (!Array.isArray(saved)) throw new TypeError("not saved blocks");
    const blocks = new BlocksAggregator(options);
    const number = (x: unknown) => typeof x === "number" && Number.isFinite(x);
    for (const hour of saved) {
      const [startMs, firstMs, lastMs, totals, entries, sessions, models] = Array.isArray(hour) ? hour : [];
      if (![startMs, firstMs, lastMs, entries].every(number) || !Array.isArray(sessions) || !Array.isArray(models) || blocks.#hours.has(startMs)) throw new TypeError("not saved blocks");
      const firsts = new Map<string, [number, number]>();
      for (const [model, ms, seq] of models.map((m: unknown) => (Array.isArray(m) ? m : []))) {
        if (typeof model !== "string" || !number(ms) || !number(seq)) throw new TypeError("not saved blocks");
        firsts.set(model, [ms, seq]);
      }
      if (!sessions.every((path: unknown) => typeof path === "string")) throw new TypeError("not saved blocks");
      blocks.#hours.set(startMs, { startMs, firstMs, lastMs, totals: ExactTotals.from(totals), entries, sessions: new Set(sessions), models: firsts });
    }
    return blocks;
  }

  /** The blocks, oldest first. */
  blocks(): UsageBlock[] {
    const { now } = this.#options;
    const length = (this.#options.hours ?? 5) * HOUR;
    const open: Hour[] = [];
    for (const hour of [...this.#hours.values()].sort((a, b) => a.startMs - b.startMs)) {
      let block = open[open.length - 1];
      if (!block || hour.startMs >= block.startMs + length) {
        block = { startMs: hour.startMs, firstMs: hour.firstMs, lastMs: hour.lastMs, totals: new ExactTotals(), entries: 0, sessions: new Set(), models: new Map() };
        open.push(block);
      }
      block.lastMs = hour.lastMs;
      block.entries += hour.entries;
      for (const path of hour.sessions) block.sessions.add(path);
      block.totals.merge(hour.totals);
      for (const [model, first] of hour.models) if (!block.models.has(model)) block.models.set(model, first);
    }
    return open.map((b) => finish(b, now, length));
  }
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
  const blocks = new BlocksAggregator(options);
  for (const session of attributionOrder(sessions)) blocks.add(session);
  return blocks.blocks();
}

function finish(b: Hour, now: number, length: number): UsageBlock {
  const endMs = b.startMs + length;
  const totals = b.totals.totals();
  const active = now >= b.startMs && now < endMs;
  const minutes = (b.lastMs - b.firstMs) / 60e3;
  const burnRate = active && minutes > 0 ? { tokensPerMinute: totals.totalTokens / minutes, costPerHour: totals.cost.total / (minutes / 60) } : null;
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
    models: [...b.models].sort(([, x], [, y]) => x[0] - y[0] || x[1] - y[1]).map(([model]) => model),
    ...roundCosts(totals),
    burnRate: burnRate && { tokensPerMinute: Math.round(burnRate.tokensPerMinute), costPerHour: roundCost(burnRate.costPerHour) },
    projection: burnRate && {
      totalTokens: Math.round(totals.totalTokens + burnRate.tokensPerMinute * left),
      cost: roundCost(totals.cost.total + (burnRate.costPerHour * left) / 60),
    },
  };
}
