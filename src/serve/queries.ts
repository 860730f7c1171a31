/**
 * INTERIM: `search`, `stats` and `files` as the query layer will have them, until it does:
 * each runs the CLI command itself with `--json` over the server's env and returns what it
 * printed, so the API equals the CLI by construction. Replaced function by function as
 * src/query/ gains them; every other route already calls the query layer directly.
 * @module
 */
import type { QueryEnv } from "../query/env.ts";
import { SessionError } from "../session/errors.ts";

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
    throw new SessionError("bad-option", message, code, hint);
  }
  return JSON.parse(out);
}

const opt = (flag: string, value: string | number | undefined | null) => (value === undefined || value === null || value === "" ? [] : [flag, String(value)]);

export async function searchValue(env: QueryEnv, options: { query: string; limit?: number; role?: string; regex?: boolean }): Promise<unknown> {
  return cliJson(env, ["search", options.query, "--all", ...opt("--limit", options.limit), ...opt("--role", options.role), ...(options.regex ? ["--regex"] : [])]);
}

export function statsValue(env: QueryEnv, options: { by?: string; since?: string; until?: string; breakdown?: boolean }): Promise<unknown> {
  return cliJson(env, ["stats", "--all", ...opt("--by", options.by), ...opt("--since", options.since), ...opt("--until", options.until), ...(options.breakdown ? ["--breakdown"] : [])]);
}

export function filesValue(env: QueryEnv, options: { path: string }): Promise<unknown> {
  return cliJson(env, ["files", options.path, "--all"]);
}
