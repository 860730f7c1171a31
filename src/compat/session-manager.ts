/**
 * pi 1.6's `SessionManager`, synchronous, with pi's signatures: a shell that runs
 * `SessionCore`'s steps with `runStepsSync` over a `SyncFileSystem`. Listing is async, as in pi.
 * @module
 */
import type { AgentMessage, FileEntry, ImageContent, SessionEntry, SessionHeader, TextContent, Usage, UsageEntry } from "../core/format/types.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import { resolvePath } from "../core/storage/paths.ts";
import type { FileSystem } from "../io/file-system.ts";
import type { Steps } from "../io/io-steps.ts";
import { nodeSyncFileSystem } from "../io/node-sync.ts";
import { LockKeeper, releaseKept } from "../io/lock-keeper.ts";
import process from "node:process";
import { runStepsSync, syncKeptFileIo } from "../io/run-sync.ts";
import { asyncFileSystem, type SyncFileSystem } from "../io/sync-file-system.ts";
import type { ContextEditReplacement } from "../session/context-edit.ts";
import { InvalidForkSourceError, InvalidSessionIdError, NotASessionError, SessionError } from "../session/errors.ts";
import { type ListOptions, listAllSessions, listSessions, sortByModified } from "../session/list-sessions.ts";
import * as newEntry from "../session/new-entries.ts";
import { type MakeManager, type NewEntry, SessionCore } from "../session/session-core.ts";
import { findByIdSteps, loadSessionFileSteps, mostRecentFile, openedPlace } from "../session/session-files.ts";
import { LazyCore } from "./lazy-core.ts";
import { readLazySession } from "./lazy-session.ts";
import { type NewSessionOptions, type PathDeps, resolveDeps, resolveUserPath, sessionDirFor, type SessionManagerOptions } from "../session/session-options.ts";

/** pi's progress callback: loaded and total files, and now and then the sessions found so far. */
export type SessionListProgress = (loaded: number, total: number, partialSessions?: readonly SessionInfo[]) => void;

/**
 * What this module adds to pi's signatures, always as a last optional argument pi does not
 * have: the disk and the clock and id sources, for tests and for programs that bring their own.
 */
export interface CompatOptions extends Omit<SessionManagerOptions, "fs"> {
  /** Defaults to `node:fs` (which Node, Deno 2 and Bun all provide). */
  fs?: SyncFileSystem;
  /** How a lock wait blocks; defaults to `Atomics.wait`. */
  sleep?: (ms: number) => void;
}

interface CompatDeps extends PathDeps {
  fs: SyncFileSystem;
  /** Holds a file's lock across a synchronous burst of appends (one per disk, shared by every manager). */
  lockKeeper: LockKeeper;
  /** What `list`/`listAll` read through: the runtime's async adapter, or `fs` when one was given. */
  listFs: FileSystem;
  sleep?: (ms: number) => void;
}

function compatDeps(options: CompatOptions = {}): CompatDeps {
  const { fs, sleep, ...rest } = options;
  const deps = resolveDeps(rest);
  const syncFs = fs ?? nodeSyncFileSystem;
  return { ...deps, fs: syncFs, listFs: fs ? asyncFileSystem(fs) : deps.fs, sleep, lockKeeper: keeperOf(syncFs) };
}

const keepers = new WeakMap<SyncFileSystem, LockKeeper>();
/** The keepers that may hold a lock now: each gives its locks back at process exit. */
const keeping = new Set<LockKeeper>();
let exitHooked = false;
/** Set at process exit: no microtask runs after it, so a burst ends with each call. */
let exiting = false;

/**
 * The lock keeper of a disk. Its locks go back when the burst of synchronous calls ends (a
 * microtask) or the process exits; appends made after that (in a later `exit` listener) take
 * and release the lock each.
 */
function keeperOf(fs: SyncFileSystem): LockKeeper {
  let keeper = keepers.get(fs);
  if (keeper) return keeper;
  keeper = new LockKeeper({
    release(kept) {
      try {
        runStepsSync(fs, releaseKept(kept));
      } catch {
        // A lock we cannot remove is judged by the next taker: its holder (us) is gone by then.
      }
    },
    io: syncKeptFileIo,
    schedule(fn) {
      if (exiting) return fn();
      keeping.add(keeper!);
      queueMicrotask(() => {
        keeping.delete(keeper!);
        fn();
      });
    },
  });
  keepers.set(fs, keeper);
  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      exiting = true;
      for (const each of keeping) each.releaseAll();
      keeping.clear();
    });
  }
  return keeper;
}

/** Our errors reworded as pi words them where callers may match on the text (the original is the `cause`). */
function asPiError(error: unknown): unknown {
  if (error instanceof NotASessionError) {
    return new SessionError(error.code, `Session file is not a valid pi session: ${error.path}`, error.exitCode, error.hint, { cause: error });
  }
  if (error instanceof InvalidForkSourceError) {
    return new SessionError(error.code, `Cannot fork: source session file is empty or invalid: ${error.path}`, error.exitCode, error.hint, { cause: error });
  }
  if (error instanceof InvalidSessionIdError) {
    return new SessionError(error.code, error.message.replace(/: ".*"$/s, ""), error.exitCode, error.hint, { cause: error });
  }
  return error;
}

function run<T>(deps: CompatDeps, steps: Steps<T>): T {
  try {
    return runStepsSync(deps.fs, steps, { sleep: deps.sleep });
  } catch (error) {
    throw asPiError(error);
  }
}

/** Publishes pi's partial lists: at the first file, every `interval` files, and at the last. */
function progressOptions(
  onProgress: SessionListProgress | undefined,
  signal: AbortSignal | undefined,
  interval: number,
  keep: (info: SessionInfo) => boolean,
): Pick<ListOptions, "onLoaded"> {
  const partial: SessionInfo[] = [];
  return {
    onLoaded(info, loaded, total) {
      signal?.throwIfAborted();
      if (info !== null && keep(info)) partial.push(info);
      const publish = loaded === 1 || loaded % interval === 0 || loaded === total;
      onProgress?.(loaded, total, publish ? sortByModified([...partial]) : undefined);
    },
  };
}

/**
 * pi 1.6's `SessionManager`: every method synchronous except `list`/`listAll`, pi's
 * signatures and return values, our files (see the module doc for where they differ on purpose).
 */
export class SessionManager extends LazyCore {
  #deps: CompatDeps;

  private constructor(deps: CompatDeps, cwd: string, sessionDir: string, persist: boolean) {
    super(deps, cwd, sessionDir, persist);
    this.#deps = deps;
  }

  static #maker(deps: CompatDeps): MakeManager<SessionManager> {
    return (cwd, dir, persist) => new SessionManager(deps, cwd, dir, persist);
  }

  /** A new session of `cwd` in `sessionDir` (default: the cwd's folder); nothing is written before a conversation. */
  static create(cwd: string, sessionDir?: string, options?: NewSessionOptions & CompatOptions): SessionManager {
    const deps = compatDeps(options);
    try {
      return SessionCore.createIn(deps, SessionManager.#maker(deps), cwd, sessionDir, options);
    } catch (error) {
      throw asPiError(error);
    }
  }

  /**
   * The session at `path` (a missing file: a new session there); `cwdOverride` replaces the
   * header's cwd. A clean current-format file is opened by its skeleton: entries are parsed when
   * asked for (`getEntries()` and appends read them all; the context only what it needs).
   */
  static open(path: string, sessionDir?: string, cwdOverride?: string, options?: CompatOptions): SessionManager {
    const deps = compatDeps(options);
    return run(deps, SessionManager.#openSteps(deps, path, sessionDir, cwdOverride));
  }

  static *#openSteps(deps: CompatDeps, path: string, sessionDir?: string, cwdOverride?: string): Steps<SessionManager> {
    const file = resolveUserPath(deps, path);
    const lazy = yield* readLazySession(deps.fs, file);
    if (lazy === null) return yield* SessionCore.openSteps(deps, SessionManager.#maker(deps), path, sessionDir, cwdOverride);
    const { cwd, dir } = openedPlace(deps, file, lazy.header, sessionDir, cwdOverride);
    const manager = new SessionManager(deps, cwd, dir, true);
    manager.startLazy(lazy);
    return manager;
  }

  /** The most recently modified session of the dir (a custom dir: of this cwd), else a new one. */
  static continueRecent(cwd: string, sessionDir?: string, options?: CompatOptions): SessionManager {
    const deps = compatDeps(options);
    return run(deps, SessionManager.#continueSteps(deps, cwd, sessionDir));
  }

  /** `continueRecent`, opening the file found as `open` does (by its skeleton when clean). */
  static *#continueSteps(deps: CompatDeps, cwd: string, sessionDir?: string): Steps<SessionManager> {
    const found = yield* mostRecentFile(deps, cwd, sessionDir);
    const manager = new SessionManager(deps, found.cwd, found.dir, true);
    const lazy = found.file === null ? null : yield* readLazySession(deps.fs, found.file);
    if (lazy !== null) manager.startLazy(lazy);
    else if (found.file !== null) manager.adopt(found.file, yield* loadSessionFileSteps(found.file));
    else manager.newSession();
    return manager;
  }

  /** A session that is never written, optionally preloaded with a file's objects or bare entries. */
  static inMemory(cwd?: string, options?: NewSessionOptions & CompatOptions, entries?: FileEntry[]): SessionManager {
    const deps = compatDeps(options);
    try {
      return SessionCore.inMemoryWith(deps, SessionManager.#maker(deps), cwd ?? deps.storage.processCwd, options, entries);
    } catch (error) {
      throw asPiError(error);
    }
  }

  /** Copies every entry of `sourcePath` into a new session of `targetCwd`, written at once. */
  static forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string, options?: NewSessionOptions & CompatOptions): SessionManager {
    const deps = compatDeps(options);
    return run(deps, SessionCore.forkSteps(deps, SessionManager.#maker(deps), sourcePath, targetCwd, sessionDir, options?.id));
  }

  /** The file of the session with exactly this id in the cwd's dir (or `sessionDir`), by header scans only. */
  static findById(cwd: string, id: string, sessionDir?: string, options?: CompatOptions): string | undefined {
    const deps = compatDeps(options);
    return run(deps, findByIdSteps(deps, cwd, id, sessionDir));
  }

  /** The sessions of `cwd`, newest activity first. */
  static async list(
    cwd: string,
    sessionDir?: string,
    onProgress?: SessionListProgress,
    signal?: AbortSignal,
    options?: CompatOptions,
  ): Promise<SessionInfo[]> {
    signal?.throwIfAborted();
    const deps = compatDeps(options);
    const resolvedCwd = resolveUserPath(deps, cwd);
    const { dir, filterCwd } = sessionDirFor(deps, resolvedCwd, sessionDir);
    const processCwd = deps.storage.processCwd;
    const keep = (info: SessionInfo) => !filterCwd || (info.cwd !== "" && resolvePath(processCwd, info.cwd) === resolvedCwd);
    const sessions = await listSessions(deps.listFs, dir, {
      cwdFilter: filterCwd ? resolvedCwd : undefined,
      processCwd,
      withText: true,
      ...progressOptions(onProgress, signal, 10, keep),
    });
    signal?.throwIfAborted();
    return sessions;
  }

  /** Every session of every project, newest activity first; with `sessionDir`, those of that one flat dir. */
  static listAll(onProgress?: SessionListProgress, signal?: AbortSignal, options?: CompatOptions): Promise<SessionInfo[]>;
  static listAll(sessionDir?: string, onProgress?: SessionListProgress, signal?: AbortSignal, options?: CompatOptions): Promise<SessionInfo[]>;
  static async listAll(...args: unknown[]): Promise<SessionInfo[]> {
    const [first, second, third] = args;
    const sessionDir = typeof first === "string" ? first : undefined;
    const onProgress = (typeof first === "function" ? first : typeof second === "function" ? second : undefined) as SessionListProgress | undefined;
    const candidate = typeof first === "string" || typeof second === "function" ? third : second ?? third;
    const signal = candidate instanceof AbortSignal ? candidate : undefined;
    const options = args.find((arg) => typeof arg === "object" && arg !== null && !(arg instanceof AbortSignal)) as CompatOptions | undefined;
    signal?.throwIfAborted();
    const deps = compatDeps(options);
    const processCwd = deps.storage.processCwd;
    const where = { agentDir: deps.agentDir, sessionDir: sessionDir ? sessionDirFor(deps, processCwd, sessionDir).dir : undefined };
    const interval = where.sessionDir === undefined ? 100 : 10;
    const sessions = await listAllSessions(deps.listFs, where, { processCwd, withText: true, ...progressOptions(onProgress, signal, interval, () => true) });
    signal?.throwIfAborted();
    return sessions;
  }

  /** Starts a new empty session (nothing written yet); returns its file path. */
  override newSession(options?: NewSessionOptions): string | undefined {
    try {
      return super.newSession(options);
    } catch (error) {
      throw asPiError(error);
    }
  }

  /** Switches to the session at `path` (a missing file becomes a new session there). */
  setSessionFile(sessionFile: string): void {
    run(this.#deps, this.setSessionFileSteps(sessionFile));
    this.dropLazy();
  }

  /** A new session from the path root..`leafId`; its file path (undefined in memory). */
  createBranchedSession(leafId: string): string | undefined {
    return this.#run(this.createBranchedSessionSteps(leafId));
  }

  /** Appends a message at the leaf; returns its id. */
  appendMessage(message: AgentMessage): string {
    return this.#append(newEntry.message(message)).id;
  }

  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.#append(newEntry.thinkingLevelChange(thinkingLevel)).id;
  }

  appendModelChange(provider: string, modelId: string): string {
    return this.#append(newEntry.modelChange(provider, modelId)).id;
  }

  /** Returns the appended entry (not its id), as pi does. */
  appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): UsageEntry {
    return this.#append(newEntry.usage(kind, provider, model, usage, note));
  }

  /** A null `firstKeptEntryId` keeps nothing before it (the entry's own id, as pi 1.6 writes). */
  appendCompaction<T = unknown>(summary: string, firstKeptEntryId: string | null, tokensBefore: number, details?: T, fromHook?: boolean, usage?: Usage): string {
    return this.#append(newEntry.compaction(this, summary, firstKeptEntryId, tokensBefore, details, fromHook, usage)).id;
  }

  appendCustomEntry(customType: string, data?: unknown): string {
    return this.#append(newEntry.customEntry(customType, data)).id;
  }

  /** Runs of CR/LF become one space, then the name is trimmed (empty clears it). */
  appendSessionInfo(name: string): string {
    return this.#append(newEntry.sessionInfo(name)).id;
  }

  appendCustomMessageEntry<T = unknown>(customType: string, content: string | (TextContent | ImageContent)[], display: boolean, details?: T): string {
    return this.#append(newEntry.customMessage(customType, content, display, details)).id;
  }

  appendContextEdit(targetId: string, replacement: ContextEditReplacement): string {
    return this.#append(newEntry.contextEdit(this, targetId, replacement)).id;
  }

  /** Sets, or with undefined or "" clears, the label of an existing entry. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    return this.#append(newEntry.labelChange(this, targetId, label)).id;
  }

  /** Appends a branch summary under `branchFromId` (null: a new root) and makes it the leaf. */
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): string {
    return this.#append(newEntry.branchSummary(this, branchFromId, summary, details, fromHook, usage)).id;
  }

  /** The header (pi's type allows null; a manager always has one). */
  override getHeader(): SessionHeader {
    return super.getHeader();
  }

  /**
   * Appends `entry` on the whole session (every entry is read first): a line of a burst whose lock
   * is kept goes out through the kept open file, any other by the steps.
   */
  #append<T extends SessionEntry>(entry: NewEntry<T>): T {
    this.materialize();
    try {
      entry.check?.();
      return this.appendKept(entry) ?? runStepsSync(this.#deps.fs, this.appendSteps(entry, true), { sleep: this.#deps.sleep });
    } catch (error) {
      throw asPiError(error);
    }
  }

  /** Runs steps that change or need the whole session: every entry is read first. */
  #run<T>(steps: Steps<T>): T {
    this.materialize();
    return run(this.#deps, steps);
  }
}
