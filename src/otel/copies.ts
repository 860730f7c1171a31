/**
 * Which entries of a session `otel` leaves out because the session copied them from the one it
 * was forked or cloned from: for entries with usage, exactly what `stats` counts elsewhere (the
 * fork-proof attribution over every session's usage rows); for the others, an entry whose id and
 * timestamp the parent file (header `parentSession`) holds too.
 * @module
 */
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { entryUsage } from "../core/info/usage-totals.ts";
import { attributeUsage, entryIdentity } from "../core/stats/attribution.ts";
import { rowEntry } from "../core/digest/usage-state.ts";
import { SkeletonReader } from "../core/read/skeleton-reader.ts";
import { resolvePath } from "../core/storage/paths.ts";
import type { QueryEnv } from "../query/env.ts";
import { usageSessions } from "../query/usage-sessions.ts";

/** Session path -> (entry identity -> how many of its copies in that file are not counted there). */
export type CopiedUsage = Map<string, Map<string, number>>;

/** The usage rows each session holds but `stats` counts in another (or earlier in the same file). */
export async function copiedUsage(env: QueryEnv): Promise<CopiedUsage> {
  const copied: CopiedUsage = new Map();
  attributeUsage(await usageSessions(env, false), () => {}, (session, row) => {
    const identity = entryIdentity(...rowEntry(session.usage, row));
    if (identity === null) return;
    let inFile = copied.get(session.path);
    if (!inFile) copied.set(session.path, inFile = new Map());
    inFile.set(identity, (inFile.get(identity) ?? 0) + 1);
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

/**
 * For each entry of a file, whether it was copied from elsewhere (true) or is the session's own:
 * `copies` (from `copiedUsage`) decides for entries with usage, `inParent` for the others.
 */
export function copiedEntries(entries: readonly SessionEntry[], copies: ReadonlyMap<string, number> | undefined, inParent: ReadonlySet<string>): boolean[] {
  const left = new Map(copies ?? []);
  return entries.map((entry) => {
    const identity = entryIdentity(entry.id, entry.timestamp);
    if (entryUsage(entry)) {
      const n = identity === null ? 0 : left.get(identity) ?? 0;
      if (n === 0) return false;
      left.set(identity!, n - 1);
      return true;
    }
    return identity !== null && inParent.has(identity);
  });
}
