/**
 * How much of a fork's usage it copied from its parent: the usage entries of the file whose
 * (id, timestamp) the parent file (header `parentSession`) holds too. The parent's own file
 * includes whatever it inherited in turn, so one level answers for the whole chain.
 * @module
 */
import { usageDigest } from "../core/digest/usage-digest.ts";
import { rowCount, rowEntry } from "../core/digest/usage-state.ts";
import type { SessionEntry, SessionHeader } from "../core/format/types.ts";
import { addUsage, emptyUsage, entryUsage, type UsageTotals } from "../core/info/usage-totals.ts";
import { entryIdentity } from "../core/stats/attribution.ts";
import { resolvePath } from "../core/storage/paths.ts";
import { recordState } from "../catalog/store.ts";
import { withCatalog } from "./scope.ts";
import type { QueryEnv } from "./env.ts";

/** The parent's path, and the inherited totals (null when the parent file cannot be read). */
export interface InheritedUsage {
  parentSession: string;
  usage: UsageTotals | null;
}

/** The inherited part of a session's usage, or null when it has no parent. */
export async function inheritedUsage(env: QueryEnv, header: SessionHeader, entries: readonly SessionEntry[]): Promise<InheritedUsage | null> {
  const parent = header.parentSession;
  if (typeof parent !== "string" || parent === "") return null;
  const path = resolvePath(env.storage.processCwd, parent);
  const record = await withCatalog(env, async (catalog) => (await catalog.refresh([usageDigest], [path])).records(usageDigest).get(path));
  if (!record || recordState(record).header === null) return { parentSession: parent, usage: null };
  const inParent = new Set<string>();
  const rows = recordState(record).data;
  for (let i = 0; i < rowCount(rows); i++) {
    const identity = entryIdentity(...rowEntry(rows, i));
    if (identity !== null) inParent.add(identity);
  }
  const usage = emptyUsage();
  for (const entry of entries) {
    const found = entryUsage(entry);
    const identity = entryIdentity(entry.id, entry.timestamp);
    if (found && identity !== null && inParent.has(identity)) addUsage(usage, found.usage);
  }
  return { parentSession: parent, usage };
}
