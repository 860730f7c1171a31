/**
 * `SessionManager`: pi's session API (method names from the seeds, pi 1.6 semantics) over an
 * injected `FileSystem`, clock and id sources, asynchronous. Mutations run one at a time in call
 * order; a failed write leaves memory as it was. The decisions live in `SessionCore` (shared with
 * the synchronous `pi-session/compat` manager); this class only runs their steps.
 * @module
 */
import type { AgentMessage, FileEntry, ImageContent, TextContent, Usage, UsageEntry } from "../core/format/types.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import { runSteps, type Steps } from "../io/io-steps.ts";
import type { ContextEditReplacement } from "./context-edit.ts";
import { listAllSessions, listSessions } from "./list-sessions.ts";
import * as newEntry from "./new-entries.ts";
import { type CompactionExtra, type MakeManager, SessionCore } from "./session-core.ts";
import { type NewSessionOptions, resolveDeps, resolveUserPath, type SessionDeps, sessionDirFor, type SessionManagerOptions } from "./session-options.ts";

export type { CompactionExtra } from "./session-core.ts";

/** Progress callback of the listing statics. */
export interface ListProgress {
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * A pi session file, or an in-memory session, that grows by appends. Await each call: the
 * async ones run in call order, while `newSession`, `branch` and `resetLeaf` act at once.
 *
 * How it differs from `pi-session/compat`'s `SessionManager` (pi 1.6's API, synchronous):
 * here `open`, `continueRecent`, `forkFrom`, `setSessionFile`, `createBranchedSession`,
 * `branchWithSummary` and every `append*` return Promises; every factory takes an options
 * object last (`fs`, `clock`, `newId`, `newSessionId`, `storage`, `agentDir`) so it runs over
 * any `FileSystem` (memory, Deno, Bun); `appendCompaction` takes `extra` fields; `getHeader`
 * never returns null. pi's positional forms `open(path, dir, cwdOverride)`,
 * `list(cwd, dir, onProgress)` and `listAll(dir, onProgress)` / `listAll(onProgress)` mean
 * the same here. Code written for pi's synchronous API should import `pi-session/compat`.
 *
 * @example An in-memory session
 * ```ts
 * const session = SessionManager.inMemory("/work");
 * const id = await session.appendMessage({ role: "user", content: "hi", timestamp: 0 });
 * session.getLeafId() === id; // true
 * session.buildSessionContext().messages.length; // 1
 * ```
 */
export class SessionManager extends SessionCore {
  #fs: SessionDeps["fs"];
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(deps: SessionDeps, cwd: string, sessionDir: string, persist: boolean) {
    super(deps, cwd, sessionDir, persist);
    this.#fs = deps.fs;
  }

  /** A new session in `sessionDir` (default: the cwd's folder). Nothing is written before a conversation. */
  static create(cwd: string, sessionDir?: string, options: SessionManagerOptions & NewSessionOptions = {}): SessionManager {
    const deps = resolveDeps(options);
    return SessionCore.createIn(deps, SessionManager.#maker(deps), cwd, sessionDir, options);
  }

  /**
   * The session at `path`, read without writing to it. A missing file becomes a new session with
   * that path; a non-empty file without a session header throws `NotASessionError`.
   */
  static open(
    path: string,
    sessionDir?: string,
    options: string | (SessionManagerOptions & { cwdOverride?: string }) = {},
  ): Promise<SessionManager> {
    // pi's positional form, open(path, dir, cwdOverride), means the same here.
    if (typeof options === "string") options = { cwdOverride: options };
    const deps = resolveDeps(options);
    return runSteps(deps.fs, SessionCore.openSteps(deps, SessionManager.#maker(deps), path, sessionDir, options.cwdOverride));
  }

  /** The most recently modified session of the dir (a custom dir: of this cwd), opened with `cwd`; else a new one. */
  static continueRecent(cwd: string, sessionDir?: string, options: SessionManagerOptions = {}): Promise<SessionManager> {
    const deps = resolveDeps(options);
    return runSteps(deps.fs, SessionCore.continueRecentSteps(deps, SessionManager.#maker(deps), cwd, sessionDir));
  }

  /** A session that is never written. `entries` (a header and entries, or entries only) preload it. */
  static inMemory(cwd?: string, options: SessionManagerOptions & NewSessionOptions = {}, entries?: readonly FileEntry[]): SessionManager {
    const deps = resolveDeps(options);
    return SessionCore.inMemoryWith(deps, SessionManager.#maker(deps), cwd ?? deps.storage.processCwd, options, entries);
  }

  /**
   * A copy of a whole session (every entry and branch) as a new session of `targetCwd`, written
   * at once. Unlike pi, an old-format source is migrated first, so the copy is a valid v3 file.
   */
  static forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options: SessionManagerOptions & { id?: string } = {},
  ): Promise<SessionManager> {
    const deps = resolveDeps(options);
    return runSteps(deps.fs, SessionCore.forkSteps(deps, SessionManager.#maker(deps), sourcePath, targetCwd, sessionDir, options.id));
  }

  /** The sessions of `cwd` (pi's `list`), newest activity first. pi's `list(cwd, dir, onProgress)` works too. */
  static list(
    cwd: string,
    sessionDir?: string,
    options: (SessionManagerOptions & ListProgress) | ListProgress["onProgress"] = {},
  ): Promise<SessionInfo[]> {
    if (typeof options === "function") options = { onProgress: options };
    const deps = resolveDeps(options);
    const resolvedCwd = resolveUserPath(deps, cwd);
    const { dir, filterCwd } = sessionDirFor(deps, resolvedCwd, sessionDir);
    const cwdFilter = filterCwd ? resolvedCwd : undefined;
    return listSessions(deps.fs, dir, { cwdFilter, processCwd: deps.storage.processCwd, onProgress: options.onProgress });
  }

  /**
   * Every session of every project, or of one flat custom dir (pi's `listAll`). pi's forms
   * `listAll(sessionDir, onProgress?)` and `listAll(onProgress)` work too.
   */
  static listAll(
    options: (SessionManagerOptions & ListProgress & { sessionDir?: string }) | string | ListProgress["onProgress"] = {},
    onProgress?: ListProgress["onProgress"],
  ): Promise<SessionInfo[]> {
    if (typeof options === "string") options = { sessionDir: options, onProgress };
    else if (typeof options === "function") options = { onProgress: options };
    const deps = resolveDeps(options);
    const processCwd = deps.storage.processCwd;
    const sessionDir = options.sessionDir ? sessionDirFor(deps, processCwd, options.sessionDir).dir : undefined;
    return listAllSessions(deps.fs, { agentDir: deps.agentDir, sessionDir }, { processCwd, onProgress: options.onProgress });
  }

  /** Switches to the session at `path` (a missing file becomes a new session there). Never writes. */
  setSessionFile(path: string): Promise<void> {
    return this.#run(this.setSessionFileSteps(path));
  }

  /**
   * Starts a new session from the path root..`leafId` (pi 1.6 rules: see `branchedEntries`),
   * `parentSession` being the current file. Written at once if the path holds a conversation.
   * Returns the new file path; in memory, replaces the contents and returns undefined.
   */
  createBranchedSession(leafId: string): Promise<string | undefined> {
    return this.#run(this.createBranchedSessionSteps(leafId));
  }

  /** Appends a message at the leaf (compaction and branch summaries have their own methods); returns its id. */
  appendMessage(message: AgentMessage): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.message(message)));
  }

  /** Records a thinking level change at the leaf; returns its id. */
  appendThinkingLevelChange(thinkingLevel: string): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.thinkingLevelChange(thinkingLevel)));
  }

  /** Records a model change at the leaf; returns its id. */
  appendModelChange(provider: string, modelId: string): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.modelChange(provider, modelId)));
  }

  /** Appends a compaction. A null or undefined `firstKeptEntryId` keeps nothing before it (pi 1.6: the entry's own id). */
  appendCompaction(
    summary: string,
    firstKeptEntryId: string | null | undefined,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
    usage?: Usage,
    extra: CompactionExtra = {},
  ): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.compaction(this, summary, firstKeptEntryId, tokensBefore, details, fromHook, usage, extra)));
  }

  /** Stores extension state at the leaf; it never reaches the model context. Returns its id. */
  appendCustomEntry(customType: string, data?: unknown): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.customEntry(customType, data)));
  }

  /** Names the session: runs of CR/LF become one space, then the name is trimmed (empty clears it). */
  appendSessionInfo(name: string): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.sessionInfo(name)));
  }

  /** Appends an extension message that does reach the model context (as role `custom`); returns its id. */
  appendCustomMessageEntry(customType: string, content: string | (TextContent | ImageContent)[], display: boolean, details?: unknown): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.customMessage(customType, content, display, details)));
  }

  /** Sets, or with undefined or "" clears, the label of an existing entry. */
  appendLabelChange(targetId: string, label: string | undefined): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.labelChange(this, targetId, label)));
  }

  /** Records usage outside any message (e.g. cache warming); returns the entry. */
  appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): Promise<UsageEntry> {
    return this.#run(this.appendSteps(newEntry.usage(kind, provider, model, usage, note)));
  }

  /** Replaces (or with null leaves out) a message of the active branch in the model context. */
  appendContextEdit(targetId: string, replacement: ContextEditReplacement): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.contextEdit(this, targetId, replacement)));
  }

  /**
   * Appends a branch summary as a child of `branchFromId` (null: a new root) and makes it the
   * leaf; `fromId` is the old leaf (or "root"). If the write fails, the leaf stays where it was.
   */
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): Promise<string> {
    return this.#runId(this.appendSteps(newEntry.branchSummary(this, branchFromId, summary, details, fromHook, usage)));
  }

  /**
   * Runs mutations one at a time, in call order, whether or not earlier ones failed. Steps do
   * nothing until run, so each call decides (leaf, ids) when its turn comes.
   */
  static #maker(deps: SessionDeps): MakeManager<SessionManager> {
    return (cwd, dir, persist) => new SessionManager(deps, cwd, dir, persist);
  }

  #run<T>(steps: Steps<T>): Promise<T> {
    const task = () => runSteps(this.#fs, steps);
    const result = this.#queue.then(task, task);
    this.#queue = result.catch(() => {});
    return result;
  }

  async #runId(steps: Steps<{ id: string }>): Promise<string> {
    return (await this.#run(steps)).id;
  }
}
