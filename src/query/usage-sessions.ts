/**
 * The usage of every session, as `stats` and `blocks` read it through the catalog (all of them:
 * copies are recognised across projects), and which of them a command reports on.
 * @module
 */
import { usageDigest } from "../core/digest/usage-digest.ts";
import type { DigestState } from "../core/digest/digester.ts";
import type { UsageSession } from "../core/stats/attribution.ts";
import { resolvePath } from "../core/storage/paths.ts";
import { type CatalogRecord, recordState } from "../catalog/store.ts";
import { sessionScope, withCatalog, withProgress } from "./scope.ts";
import type { QueryEnv } from "./env.ts";

/**
 * Every session's usage rows (for attribution), every record held at once: what `stats` and
 * `blocks` read before they took one session at a time (`eachUsageSession`), and what the tests
 * compare that with.
 */
export async function usageSessions(env: QueryEnv): Promise<UsageSession[]> {
  return withCatalog(env, async (catalog) => {
    const every = await sessionScope(env, true, catalog);
    const [options, done] = withProgress(env, "Reading usage", { listedDirs: every.dirs, listing: every.listing });
    const view = await catalog.refresh([usageDigest], every.files, options).finally(done);
    return usageSessionsOf(view.records(usageDigest));
  });
}

/** The sessions of usage-digest records (those with a header, not rejected). */
export function usageSessionsOf(records: Iterable<[string, CatalogRecord]>): UsageSession[] {
  const sessions: UsageSession[] = [];
  for (const [path, record] of records) {
    const session = usageSessionOf(path, record);
    if (!session) continue;
    sessions.push(session);
  }
  return sessions;
}

/** The session of one usage-digest record, or undefined when it has no header or was rejected. */
export function usageSessionOf(path: string, record: CatalogRecord): UsageSession | undefined {
  return usageSessionOfState(path, recordState(record));
}

/** The session of a usage-digest record's effective state (`recordState`), as `usageSessionOf`. */
export function usageSessionOfState(path: string, state: DigestState<unknown>): UsageSession | undefined {
  const { header, rejected, data } = state;
  if (rejected || header === null) return undefined;
  return sessionOfHeader(path, header as unknown as Record<string, unknown>, data as UsageSession["usage"]);
}

/**
 * A session of the attribution, from the fields of its header (an id that is not a string as its
 * text, any other field missing or not a string as empty) and its usage rows.
 */
export function sessionOfHeader(path: string, header: Record<string, unknown>, usage: UsageSession["usage"]): UsageSession {
  return {
    path,
    id: typeof header.id === "string" ? header.id : String(header.id ?? ""),
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    created: typeof header.timestamp === "string" ? header.timestamp : "",
    parentSession: typeof header.parentSession === "string" ? header.parentSession : undefined,
    usage,
  };
}

/** Which sessions a report covers: this directory's (`all` false) or every one (undefined). */
export async function usageScope(env: QueryEnv, all: boolean): Promise<((s: UsageSession) => boolean) | undefined> {
  if (all) return undefined;
  const local = await sessionScope(env, false);
  const paths = new Set(local.files);
  const base = env.storage.processCwd;
  const cwd = local.cwdFilter === undefined ? undefined : resolvePath(base, local.cwdFilter);
  return (s) => paths.has(s.path) && (cwd === undefined || (s.cwd !== "" && resolvePath(base, s.cwd) === cwd));
}
