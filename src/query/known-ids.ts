/**
 * The ids a command prints, shortened so that each resolves back to its own session from any
 * directory: unique among every session the catalog knows (every project, or the whole custom
 * session dir), not only among the rows printed. The known ids stream past (nothing per session
 * is kept), so this costs no memory per session of the corpus.
 * @module
 */
import { walkCollector } from "./walk-garbage.ts";
import type { Catalog } from "../catalog/catalog.ts";
import { listingKinds, recordsInfo } from "../catalog/list-cached.ts";
import type { CatalogRecord } from "../catalog/store.ts";
import { sessionScope } from "./scope.ts";
import { readHeader } from "../session/read-header.ts";
import type { QueryEnv } from "./env.ts";
import { commonPrefix } from "../render/unique-prefix.ts";

/** Shortest ids are at least this long (as `uniquePrefixes` makes them). */
const MIN = 8;

/**
 * Short forms of `shown`, each unique among `shown` and every known session (the ids a session
 * reference can name, what `resolveSessionRef` searches): as `uniquePrefixesAmong` gives them.
 *
 * @example
 * ```ts
 * // const short = await shortSessionIds(env, catalog, rows.map((r) => r.id));
 * // short.get(rows[0].id) -> "019a2b3c-4d5e"
 * ```
 */
export async function shortSessionIds(env: QueryEnv, catalog: Catalog, shown: readonly string[]): Promise<Map<string, string>> {
  if (shown.length === 0) return new Map();
  // For each id shown: the longest prefix it shares with any other id.
  const shared = new Map([...new Set(shown)].map((id) => [id, 0]));
  const meet = (other: string) => {
    for (const [id, length] of shared) if (other !== id) shared.set(id, Math.max(length, commonPrefix(id, other)));
  };
  for (const id of shared.keys()) meet(id);
  const scope = await sessionScope(env, true);
  if (!catalog.store) {
    // No catalog kept (off): the ids from the headers, as a session reference is resolved; a
    // listing of every file would read every file again, 2.5 GB over the 25,000-session corpus.
    for (const path of scope.files) {
      const id = (await readHeader(env.fs, path).catch(() => null))?.id;
      if (typeof id === "string" && id !== "") meet(id);
    }
    return new Map(shown.map((id) => [id, id.slice(0, Math.max(MIN, shared.get(id)! + 1))]));
  }
  const options = { processCwd: env.storage.processCwd };
  const collect = walkCollector();
  const onRecords = (path: string, records: readonly CatalogRecord[]) => {
    collect();
    const info = recordsInfo(path, records, options);
    if (info) meet(info.id);
  };
  await catalog.refresh(listingKinds(false), scope.files, { listedDirs: scope.dirs, keep: false, onRecords });
  return new Map(shown.map((id) => [id, id.slice(0, Math.max(MIN, shared.get(id)! + 1))]));
}
