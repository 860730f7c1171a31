/**
 * `blocks`: usage in 5-hour blocks (as ccusage shows them), with the active block's burn rate
 * and projection.
 * @module
 */
import { onOrAfter } from "../core/stats/date-bound.ts";
import { localDays } from "../core/stats/time-buckets.ts";
import { BlocksAggregator, type UsageBlock } from "../core/stats/usage-blocks.ts";
import { dateOption, timeZoneOption } from "./date-options.ts";
import type { QueryEnv } from "./env.ts";
import { usageScope } from "./usage-sessions.ts";
import { eachUsageSession, type KeptAnswer } from "./usage-stream.ts";
import { usageDigest } from "../core/digest/usage-digest.ts";
import type { DateBound } from "../core/stats/date-bound.ts";
import { VERSION_LINE } from "../version.ts";
import { answerScope, machineZone } from "./stats-answer.ts";

/** How long a block lasts. */
export const BLOCK_HOURS = 5;

export interface BlocksOptions {
  /** Every project (default: the env cwd's sessions). */
  all?: boolean;
  /** Blocks from this day or month (YYYY-MM-DD, YYYY-MM), ISO time, or span back (7d, 12h). */
  since?: string;
  /** Only the block that is still open. */
  active?: boolean;
  /** IANA time zone of day bounds (default: the machine's). */
  tz?: string;
}

/** What `blocks --json` prints (docs/schema/blocks.schema.json), without `schemaVersion`. */
export interface BlocksJson {
  blockHours: number;
  /** The env clock's time, which decides the active block. */
  now: string;
  blocks: UsageBlock[];
}

export interface BlocksResult {
  value: BlocksJson;
}

/** Bumped when what the kept hours hold, or how they are made, changes within one version line. */
const HOURS_FORM = 1;

/**
 * The key of the hours kept for blocks of this scope and `since` (sqlite-answers.ts): the time
 * the blocks are shown at is not part of it. Undefined (nothing kept) for a day or month bound in
 * a zone that cannot be named (as `stats` keeps no report then).
 */
export async function blocksAnswerKey(env: QueryEnv, all: boolean, since: DateBound | undefined, tz: string | undefined): Promise<string | undefined> {
  const zone = since === undefined ? null : tz !== undefined ? `tz=${tz}` : await machineZone(env);
  if (zone === undefined) return undefined;
  return JSON.stringify(["blocks", HOURS_FORM, VERSION_LINE, usageDigest.version, await answerScope(env, all), { hours: BLOCK_HOURS, since: since ?? null, zone }]);
}

/** The usage blocks, oldest first. */
export async function usageBlockReport(env: QueryEnv, options: BlocksOptions = {}): Promise<BlocksResult> {
  const tz = timeZoneOption(options.tz);
  const since = dateOption(env, "since", options.since);
  const day = localDays(tz);
  const inScope = await usageScope(env, Boolean(options.all));
  const now = env.now().getTime();
  const cut = { now, hours: BLOCK_HOURS, inScope, since: since && ((ms: number) => onOrAfter(since, ms, day(ms))) };
  // One session at a time, each row added to its hour as it comes: every session's usage held
  // till the end took 0.8 s and 178 MB at 25,000 sessions. The hours are kept in the catalog
  // while no usage record changes (as `stats` keeps its reports): a warm `blocks` of one project
  // among 25,000 sessions walked every session's usage again, 0.66 s, to print the same blocks.
  let aggregator = new BlocksAggregator(cut);
  const key = await blocksAnswerKey(env, Boolean(options.all), since, tz);
  const kept: KeptAnswer | undefined = key === undefined ? undefined : {
    key,
    found(body) {
      try {
        aggregator = BlocksAggregator.restored(cut, JSON.parse(body));
        return true;
      } catch {
        return false;
      }
    },
    made: () => JSON.stringify(aggregator.save()),
  };
  await eachUsageSession(env, () => {
    aggregator = new BlocksAggregator(cut);
    return (session) => aggregator.add(session);
  }, kept);
  let blocks = aggregator.blocks();
  if (options.active) blocks = blocks.filter((b) => b.active);
  return { value: { blockHours: BLOCK_HOURS, now: new Date(now).toISOString(), blocks } };
}
