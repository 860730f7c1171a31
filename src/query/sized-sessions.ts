/**
 * Sessions with their size on disk, for `du` and `prune`: every project's (or one project's)
 * sessions as the catalog lists them, and each file's byte count.
 * @module
 */
import type { SessionInfo } from "../core/info/session-info.ts";
import { resolvePath } from "../core/storage/paths.ts";
import { mapConcurrent } from "../session/list-sessions.ts";
import { cataloguedSessions } from "./scope.ts";
import type { QueryEnv } from "./env.ts";

/** A session and its file's size. */
export interface SizedSession extends SessionInfo {
  bytes: number;
}

/**
 * Every project's sessions, or those whose header cwd is `project` (resolved against the cwd),
 * and the ids of every known session (to shorten printed ids by).
 */
export async function sizedSessions(env: QueryEnv, project?: string): Promise<{ sessions: SizedSession[]; knownIds: string[] }> {
  const everywhere = (await cataloguedSessions(env, true)).sessions;
  let sessions = everywhere;
  if (project !== undefined) {
    const base = env.storage.processCwd;
    const wanted = resolvePath(base, project);
    sessions = sessions.filter((s) => s.cwd !== "" && resolvePath(base, s.cwd) === wanted);
  }
  const sized = await mapConcurrent(sessions, 32, async (s) => ({ ...s, bytes: (await env.fs.stat(s.path))?.size ?? 0 }));
  return { sessions: sized, knownIds: everywhere.map((s) => s.id) };
}
