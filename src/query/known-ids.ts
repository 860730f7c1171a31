/**
 * The ids a command prints, shortened so that each resolves back to its own session from any
 * directory: unique among every session the catalog knows (every project, or the whole custom
 * session dir), not only among the rows printed.
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import { catalogSessions } from "../catalog/list-cached.ts";
import { sessionScope } from "./scope.ts";
import type { QueryEnv } from "./env.ts";
import { uniquePrefixesAmong } from "../render/unique-prefix.ts";

/** The ids of every session a session reference can name (what `resolveSessionRef` searches). */
export async function allSessionIds(env: QueryEnv, catalog: Catalog): Promise<string[]> {
  const scope = await sessionScope(env, true);
  const sessions = await catalogSessions(catalog, scope, { processCwd: env.storage.processCwd });
  return sessions.map((s) => s.id);
}

/**
 * Short forms of `shown`, each unique among `shown` and every known session.
 *
 * @example
 * ```ts
 * // const short = await shortSessionIds(env, catalog, rows.map((r) => r.id));
 * // short.get(rows[0].id) -> "019a2b3c-4d5e"
 * ```
 */
export async function shortSessionIds(env: QueryEnv, catalog: Catalog, shown: readonly string[]): Promise<Map<string, string>> {
  if (shown.length === 0) return new Map();
  return uniquePrefixesAmong(shown, await allSessionIds(env, catalog));
}
