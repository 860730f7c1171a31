/**
 * `du`: the disk use of the sessions, per project and the largest sessions.
 * @module
 */
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { type SizedSession, sizedSessions } from "./sized-sessions.ts";

export interface DuOptions {
  /** How many of the largest sessions to give (a whole number, 0 for none; a string is read as one); default 10. */
  limit?: number | string;
  /** Only the sessions whose cwd is this folder (relative to the process cwd). */
  project?: string;
}

/** One project's sessions and bytes. */
export interface ProjectUse {
  cwd: string;
  sessions: number;
  bytes: number;
}

/** One of the largest sessions. */
export interface LargeSessionJson {
  path: string;
  id: string;
  cwd: string;
  name: string | null;
  bytes: number;
  modified: string;
}

/** What `du --json` prints (docs/schema/du.schema.json), without `schemaVersion`. */
export interface DuJson {
  totalBytes: number;
  sessionCount: number;
  /** The largest first. */
  projects: ProjectUse[];
  largest: LargeSessionJson[];
}

export interface DuResult {
  value: DuJson;
  /** The largest sessions with their listing details (first message), and every known session id. */
  largest: SizedSession[];
  knownIds: string[];
}

function byProject(sessions: SizedSession[]): ProjectUse[] {
  const projects = new Map<string, ProjectUse>();
  for (const s of sessions) {
    let p = projects.get(s.cwd);
    if (!p) projects.set(s.cwd, p = { cwd: s.cwd, sessions: 0, bytes: 0 });
    p.sessions++;
    p.bytes += s.bytes;
  }
  return [...projects.values()].sort((a, b) => b.bytes - a.bytes || (a.cwd < b.cwd ? -1 : 1));
}

/** Disk use of every project's sessions (or one project's). */
export async function diskUse(env: QueryEnv, options: DuOptions = {}): Promise<DuResult> {
  const limit = Number(options.limit ?? 10);
  if (!Number.isInteger(limit) || limit < 0) throw new QueryError("bad-option", `--limit must be a whole number, not "${options.limit}"`, "Pass e.g. --limit 20");
  const { sessions, knownIds } = await sizedSessions(env, options.project);
  const largest = [...sessions].sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1)).slice(0, limit);
  const value: DuJson = {
    totalBytes: sessions.reduce((n, s) => n + s.bytes, 0),
    sessionCount: sessions.length,
    projects: byProject(sessions),
    largest: largest.map((s) => ({ path: s.path, id: s.id, cwd: s.cwd, name: s.name ?? null, bytes: s.bytes, modified: s.modified.toISOString() })),
  };
  return { value, largest, knownIds };
}
