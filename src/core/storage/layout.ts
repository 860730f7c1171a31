/**
 * Where pi keeps sessions: the agent dir, the per-cwd folder names, file names, and the
 * session-dir precedence (flag > environment > settings > default). Pure: the caller
 * supplies the environment, home directory and settings.
 * @module
 */
import { expandHome, joinPath, resolvePath } from "./paths.ts";

const VALID_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** True for ids pi accepts from a caller: alphanumeric at both ends, `[A-Za-z0-9._-]` inside. */
export function isValidSessionId(id: string): boolean {
  return VALID_ID.test(id);
}

/**
 * The folder name pi uses for a working directory.
 *
 * @example
 * ```ts
 * encodeCwd("/home/u/proj"); // "--home-u-proj--"
 * encodeCwd("C:\\Users\\me"); // "--C--Users-me--"
 * ```
 */
export function encodeCwd(cwd: string): string {
  return "--" + cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-") + "--";
}

/** `<timestamp>_<id>.jsonl`, the timestamp being the ISO time with `:` and `.` as `-`. */
export function sessionFileName(timestampIso: string, sessionId: string): string {
  return `${timestampIso.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/** What storage resolution needs from the outside world. */
export interface StorageEnv {
  /** Environment variable lookup. */
  env: (name: string) => string | undefined;
  home: string;
  /** The process working directory (relative paths resolve against it). */
  processCwd: string;
}

/** `$PI_CODING_AGENT_DIR` when set and non-empty (with `~` expanded), else `~/.pi/agent`. */
export function resolveAgentDir(storage: StorageEnv, flag?: string): string {
  const raw = flag || storage.env("PI_CODING_AGENT_DIR");
  return raw ? expandHome(raw, storage.home) : joinPath(storage.home, ".pi", "agent");
}

/** The default per-cwd session folder: `<agentDir>/sessions/--<encoded cwd>--`. */
export function defaultSessionDir(cwd: string, agentDir: string, processCwd: string): string {
  return joinPath(resolvePath(processCwd, agentDir), "sessions", encodeCwd(resolvePath(processCwd, cwd)));
}

/** Where a session dir came from; `custom` dirs are flat and filtered by header cwd. */
export interface SessionDirChoice {
  dir: string;
  source: "flag" | "env" | "settings" | "default";
  custom: boolean;
}

/**
 * The session dir for `cwd`: `--session-dir` > `$PI_CODING_AGENT_SESSION_DIR` > the
 * `sessionDir` setting > the default per-cwd folder. Relative custom dirs stay relative,
 * as in pi (they resolve against the process cwd when used).
 */
export function resolveSessionDir(
  storage: StorageEnv,
  options: { cwd: string; agentDir: string; flag?: string; setting?: unknown },
): SessionDirChoice {
  const candidates: [SessionDirChoice["source"], unknown][] = [
    ["flag", options.flag],
    ["env", storage.env("PI_CODING_AGENT_SESSION_DIR")],
    ["settings", options.setting],
  ];
  for (const [source, value] of candidates) {
    if (typeof value === "string" && value !== "") {
      const dir = expandHome(value, storage.home);
      const fallback = defaultSessionDir(options.cwd, options.agentDir, storage.processCwd);
      return { dir, source, custom: resolvePath(storage.processCwd, dir) !== fallback };
    }
  }
  return { dir: defaultSessionDir(options.cwd, options.agentDir, storage.processCwd), source: "default", custom: false };
}
