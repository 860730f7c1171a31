/**
 * `du`: the disk use of the sessions, per project and the largest sessions.
 * @module
 */
import { resolvePath } from "../core/storage/paths.ts";
import type { QueryEnv } from "./env.ts";
import { QueryError } from "./errors.ts";
import { withListedRows } from "./list-rows.ts";
import { uniquePrefixesAmong } from "../render/unique-prefix.ts";
import { sizedSessions } from "./sized-sessions.ts";

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

/** One of the largest sessions, with what the table prints of it. */
export interface LargeSession {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  firstMessage: string;
  bytes: number;
  modified: Date;
}

export interface DuResult {
  value: DuJson;
  /** The largest sessions with their listing details (first message), and their ids' short forms (unique among every known session). */
  largest: LargeSession[];
  shortIds: Map<string, string>;
}

/** What `du` adds up: each session of its scope in turn, the largest few kept. */
class DiskTally {
  readonly #projects = new Map<string, ProjectUse>();
  #largest: LargeSession[] = [];
  #total = 0;
  #count = 0;
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(session: LargeSession): void {
    this.#total += session.bytes;
    this.#count++;
    let p = this.#projects.get(session.cwd);
    if (!p) this.#projects.set(session.cwd, p = { cwd: session.cwd, sessions: 0, bytes: 0 });
    p.sessions++;
    p.bytes += session.bytes;
    if (this.#limit === 0) return;
    this.#largest.push(session);
    // Cut back now and then: at most about twice the limit held, whatever the number of sessions.
    if (this.#largest.length >= 2 * this.#limit + 64) this.#largest = this.#top();
  }

  #top(): LargeSession[] {
    return this.#largest.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1)).slice(0, this.#limit);
  }

  result(): Omit<DuResult, "shortIds"> {
    const largest = this.#top();
    const projects = [...this.#projects.values()].sort((a, b) => b.bytes - a.bytes || (a.cwd < b.cwd ? -1 : 1));
    const value: DuJson = {
      totalBytes: this.#total,
      sessionCount: this.#count,
      projects,
      largest: largest.map((s) => ({ path: s.path, id: s.id, cwd: s.cwd, name: s.name ?? null, bytes: s.bytes, modified: s.modified.toISOString() })),
    };
    return { value, largest };
  }
}

/** Disk use of every project's sessions (or one project's). */
export async function diskUse(env: QueryEnv, options: DuOptions = {}): Promise<DuResult> {
  const limit = Number(options.limit ?? 10);
  if (!Number.isInteger(limit) || limit < 0) throw new QueryError("bad-option", `--limit must be a whole number, not "${options.limit}"`, "Pass e.g. --limit 20");
  const base = env.storage.processCwd;
  const wanted = options.project === undefined ? undefined : resolvePath(base, options.project);
  const inProject = (cwd: string) => wanted === undefined || (cwd !== "" && resolvePath(base, cwd) === wanted);
  // From the listing's rows where the catalog keeps them, their sizes as last checked (as `list`
  // trusts them): one session at a time. Every session held with a fresh stat of each file took
  // 0.87 s and 166 MB at 25,000 sessions.
  const fromRows = await withListedRows(env, { all: true }, async (listed) => {
    if (!listed.sized) return undefined;
    const tally = new DiskTally(limit);
    for (const row of listed.sized()) {
      if (!inProject(row.cwd)) continue;
      tally.add({ path: row.path, id: row.id, cwd: row.cwd, name: row.name ?? undefined, firstMessage: row.first, bytes: row.size, modified: new Date(row.modified) });
    }
    const result = tally.result();
    // Unique among every known session, from the stored ids nearest each: not every id read and sorted.
    return { ...result, shortIds: await listed.shortIdsOf(result.largest.map((s) => s.id)) };
  });
  if (fromRows) return fromRows;
  const { sessions, knownIds } = await sizedSessions(env, options.project);
  const tally = new DiskTally(limit);
  for (const s of sessions) tally.add(s);
  const result = tally.result();
  return { ...result, shortIds: uniquePrefixesAmong(result.largest.map((s) => s.id), knownIds) };
}
