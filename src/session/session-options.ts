/**
 * What a `SessionManager` depends on (file system, clock, id sources, environment), with
 * defaults for real use, and where its session directory is. Tests pin every one of them.
 * @module
 */
import { defaultSessionDir, resolveAgentDir, type StorageEnv } from "../core/storage/layout.ts";
import { expandHome, resolvePath } from "../core/storage/paths.ts";
import { processEnvironment } from "../io/environment.ts";
import type { FileSystem } from "../io/file-system.ts";
import { detectFileSystem } from "../io/mod.ts";
import { randomEntryId, uuidV7 } from "./ids.ts";

/** Dependencies every `SessionManager` factory accepts. */
export interface SessionManagerOptions {
  /** Defaults to the adapter of the running runtime. */
  fs?: FileSystem;
  /** Entry and header timestamps; defaults to `new Date()`. */
  clock?: () => Date;
  /** Entry ids (collisions are retried); defaults to 8 random hex characters. */
  newId?: () => string;
  /** Generated session ids; defaults to a UUIDv7 at `clock()`. */
  newSessionId?: () => string;
  /** Environment, home and process cwd; defaults to the running process's. */
  storage?: StorageEnv;
  /** Defaults to `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
}

/** Options of a new session. */
export interface NewSessionOptions {
  /** A caller-chosen session id (checked like pi does); generated when absent. */
  id?: string;
  /** The header's `parentSession`. */
  parentSession?: string;
}

/** What the shared session logic needs besides a file system: time, ids, where things are. */
export interface PathDeps {
  clock: () => Date;
  newId: () => string;
  newSessionId: () => string;
  storage: StorageEnv;
  agentDir: string;
}

/** `SessionManagerOptions` with every default filled in. */
export interface SessionDeps extends PathDeps {
  fs: FileSystem;
}

/** Fills in the defaults. */
export function resolveDeps(options: SessionManagerOptions = {}): SessionDeps {
  const storage = options.storage ?? processEnvironment();
  const clock = options.clock ?? (() => new Date());
  return {
    fs: options.fs ?? detectFileSystem(),
    clock,
    newId: options.newId ?? randomEntryId,
    newSessionId: options.newSessionId ?? (() => uuidV7(clock().getTime())),
    storage,
    agentDir: options.agentDir ?? resolveAgentDir(storage),
  };
}

/** A path as pi takes it: `~` expanded, then made absolute against the process cwd. */
export function resolveUserPath(deps: PathDeps, path: string): string {
  return resolvePath(deps.storage.processCwd, expandHome(path, deps.storage.home));
}

/**
 * The session dir for `cwd`: the given dir (`~` expanded, a relative dir kept relative as in
 * pi) or the per-cwd default. `filterCwd` is true for a custom dir other than the default:
 * such a dir is flat, so its sessions are told apart by their header cwd.
 */
export function sessionDirFor(deps: PathDeps, cwd: string, sessionDir?: string): { dir: string; filterCwd: boolean } {
  const fallback = defaultSessionDir(cwd, deps.agentDir, deps.storage.processCwd);
  if (!sessionDir) return { dir: fallback, filterCwd: false };
  const dir = expandHome(sessionDir, deps.storage.home);
  return { dir, filterCwd: resolvePath(deps.storage.processCwd, dir) !== fallback };
}
