/**
 * Which entries of a session `otel` leaves out because the session copied them from the one it
 * was forked or cloned from: for entries with usage, exactly what `stats` counts elsewhere (the
 * fork-proof attribution over every session's usage rows, sessions taken in attribution order as
 * they are read); for the others, an entry whose id and timestamp the parent file (header
 * `parentSession`) holds too.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { entryUsage } from "../core/info/usage-totals.ts";
import { entryIdentity, type UsageAttribution, type UsageSession } from "../core/stats/attribution.ts";
import { rowEntry } from "../core/digest/usage-state.ts";
import { usageDigest } from "../core/digest/usage-digest.ts";
import { exactTimeText } from "../core/digest/entry-stamp.ts";
import { SkeletonReader } from "../core/read/skeleton-reader.ts";
import { resolvePath } from "../core/storage/paths.ts";
import type { QueryEnv } from "../query/env.ts";
import { withCatalog, withProgress } from "../query/scope.ts";
import { usageSessionsOf } from "../query/usage-sessions.ts";

/** The usage of sessions `otel` does not read itself (already sent, or out of scope), through the catalog. */
export async function catalogUsage(env: QueryEnv, files: readonly string[]): Promise<UsageSession[]> {
  if (files.length === 0) return [];
  return withCatalog(env, async (catalog) => {
    const [options, done] = withProgress(env, "Reading usage");
    const view = await catalog.refresh([usageDigest], files, options).finally(done);
    return usageSessionsOf(view.records(usageDigest));
  });
}

/**
 * Attributes a session's usage rows (after every session before it in attribution order): the
 * identities of the rows counted elsewhere, each with how many of its copies the file holds.
 */
export function attributeSession(attribution: UsageAttribution, session: UsageSession): Map<string, number> {
  const copied = new Map<string, number>();
  attribution.add(session, undefined, (s, row) => {
    const identity = entryIdentity(...rowEntry(s.usage, row));
    if (identity !== null) copied.set(identity, (copied.get(identity) ?? 0) + 1);
  });
  return copied;
}

/** The (id, timestamp) identities of the entries of a session's parent file; empty without one. */
export async function parentIdentities(env: QueryEnv, header: SessionHeader): Promise<Set<string>> {
  const identities = new Set<string>();
  const parent = header.parentSession;
  if (typeof parent !== "string" || parent === "") return identities;
  const reader = new SkeletonReader();
  try {
    for await (const chunk of env.fs.read(resolvePath(env.storage.processCwd, parent))) reader.push(chunk);
  } catch {
    // The parent is gone or unreadable: nothing is known to be copied from it.
    return identities;
  }
  for (const entry of reader.end().entries) {
    const identity = entryIdentity(entry.id, entry.timestamp);
    if (identity !== null) identities.add(identity);
  }
  return identities;
}

/** An entry's timestamp as written: the walk keeps an exact ISO time as its epoch ms (see span-entries.ts). */
function timestampText(timestamp: unknown): unknown {
  return typeof timestamp === "number" ? exactTimeText(timestamp) : timestamp;
}

/**
 * For each entry of a file, whether it was copied from elsewhere (true) or is the session's own:
 * `copies` (from `attributeSession`) decides for entries with usage, `inParent` for the others.
 */
export function copiedEntries(entries: readonly SessionEntry[], copies: ReadonlyMap<string, number> | undefined, inParent: ReadonlySet<string>): boolean[] {
  const left = new Map(copies ?? []);
  return entries.map((entry) => {
    // Most sessions are nobody's copy: no identity to make then.
    if (entryUsage(entry)) {
      if (left.size === 0) return false;
      const identity = entryIdentity(entry.id, timestampText(entry.timestamp));
      const n = identity === null ? 0 : left.get(identity) ?? 0;
      if (n === 0) return false;
      left.set(identity!, n - 1);
      return true;
    }
    if (inParent.size === 0) return false;
    const identity = entryIdentity(entry.id, timestampText(entry.timestamp));
    return identity !== null && inParent.has(identity);
  });
}
