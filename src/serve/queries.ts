/**
 * The questions the server asks, one function per route, each returning the value the
 * matching CLI command prints with `--json` (and, where pages are fetched, the next cursor).
 * INTERIM: until the query layer (src/query/) has each function, this runs the CLI command
 * itself with `--json` over the server's file system and returns what it printed, so the API
 * equals the CLI by construction. Each function is replaced by the query layer's as it lands.
 * @module
 */
import type { QueryEnv } from "../query/env.ts";
import { SessionError } from "../session/errors.ts";

export interface Paged<T> {
  value: T;
  nextCursor: string | null;
}

/** Runs `pi-session <args> --json` against the env and parses what it printed. */
async function cliJson(env: QueryEnv, args: string[]): Promise<unknown> {
  const { run } = await import("../cli/run.ts");
  let out = "";
  let err = "";
  const code = await run([...args, "--json", "-q", "--agent-dir", env.agentDir, "--cwd", env.cwd], {
    fs: env.fs,
    storage: env.storage,
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    now: () => env.now(),
  });
  if (code >= 2 || (code === 1 && out.trim() === "")) {
    const [message = "failed", hint = ""] = err.trim().split("\n").map((l) => l.replace(/^(pi-session: |hint: |error: )/, ""));
    const notFound = /not found|No session found|no such/i.test(message);
    throw new SessionError(notFound ? "not-found" : "bad-request", message, code, hint);
  }
  return JSON.parse(out);
}

const opt = (flag: string, value: string | number | undefined | null) => (value === undefined || value === null || value === "" ? [] : [flag, String(value)]);

export interface ListOptions {
  all?: boolean;
  sort?: string;
  named?: boolean;
  search?: string;
  limit?: number;
  cursor?: string;
}

export async function listValue(env: QueryEnv, options: ListOptions): Promise<unknown[]> {
  return (await listPage(env, options)).value;
}

export async function listPage(env: QueryEnv, options: ListOptions): Promise<Paged<unknown[]>> {
  let offset = 0;
  try {
    offset = options.cursor ? Number(atob(options.cursor)) : 0;
  } catch {
    offset = NaN;
  }
  if (!Number.isInteger(offset) || offset < 0) throw new SessionError("bad-cursor", `Cannot continue the listing from cursor "${options.cursor}"`, 2, "Pass the cursor of a previous page");
  const all = await cliJson(env, ["list", ...(options.all ? ["--all"] : []), ...opt("--sort", options.sort), ...(options.named ? ["--named"] : []), ...opt("--search", options.search)]) as unknown[];
  const end = options.limit === undefined ? all.length : offset + options.limit;
  return { value: all.slice(offset, end), nextCursor: end < all.length ? btoa(String(end)) : null };
}

export function infoValue(env: QueryEnv, options: { ref: string }): Promise<unknown> {
  return cliJson(env, ["info", options.ref]);
}

export function treeValue(env: QueryEnv, options: { ref: string; filter?: string }): Promise<unknown> {
  return cliJson(env, ["tree", options.ref, ...opt("--filter", options.filter)]);
}

export interface EntriesOptions {
  ref: string;
  leaf?: string;
  after?: string;
  limit?: number;
  cursor?: string;
}

interface ShowValue {
  entries: { id: string }[];
}

export async function entriesPage(env: QueryEnv, options: EntriesOptions): Promise<Paged<unknown>> {
  const shown = await cliJson(env, ["show", options.ref, ...opt("--leaf", options.leaf)]) as ShowValue;
  const after = options.cursor ? atob(options.cursor) : options.after;
  let start = 0;
  if (after !== undefined) {
    const at = shown.entries.findIndex((e) => e.id === after);
    if (at < 0) throw new SessionError("entry-not-on-branch", `Entry "${after}" is not on the branch`, 2, "Start again without after=");
    start = at + 1;
  }
  const end = options.limit === undefined ? shown.entries.length : start + options.limit;
  const entries = shown.entries.slice(start, end);
  return { value: { ...shown, entries }, nextCursor: end < shown.entries.length && entries.length > 0 ? btoa(entries[entries.length - 1].id) : null };
}

export function contextValue(env: QueryEnv, options: { ref: string; leaf?: string; format?: string }): Promise<unknown> {
  return cliJson(env, ["context", options.ref, ...opt("--leaf", options.leaf), ...opt("--format", options.format)]);
}

export async function searchValue(env: QueryEnv, options: { query: string; limit?: number; role?: string; regex?: boolean }): Promise<unknown> {
  try {
    return await cliJson(env, ["search", options.query, "--all", ...opt("--limit", options.limit), ...opt("--role", options.role), ...(options.regex ? ["--regex"] : [])]);
  } catch (error) {
    if (error instanceof SessionError && error.exitCode === 1) return [];
    throw error;
  }
}

export function statsValue(env: QueryEnv, options: { all?: boolean; by?: string; since?: string; until?: string; breakdown?: boolean }): Promise<unknown> {
  return cliJson(env, ["stats", "--all", ...opt("--by", options.by), ...opt("--since", options.since), ...opt("--until", options.until), ...(options.breakdown ? ["--breakdown"] : [])]);
}

export function filesValue(env: QueryEnv, options: { path: string }): Promise<unknown> {
  return cliJson(env, ["files", options.path, "--all"]);
}
