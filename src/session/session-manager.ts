/**
 * `SessionManager`: pi's session API (method names from the seeds, pi 1.6 semantics) over an
 * injected `FileSystem`, clock and id sources. Mutations run one at a time in call order; a
 * failed write leaves memory as it was. Queries live in `SessionView`, bytes in `SessionWriter`.
 * @module
 */
import type { AgentMessage, FileEntry, ImageContent, SessionEntry, SystemMessage, TextContent, Usage, UsageEntry } from "../core/format/types.ts";
import type { SessionInfo } from "../core/info/session-info.ts";
import { isValidSessionId, sessionFileName } from "../core/storage/layout.ts";
import { joinPath } from "../core/storage/paths.ts";
import { branchedSession } from "./branched-session.ts";
import { checkedContextEdit, type ContextEditReplacement } from "./context-edit.ts";
import * as build from "./entry-builders.ts";
import { EntryIndex } from "./entry-index.ts";
import { InvalidSessionIdError, UnknownEntryError } from "./errors.ts";
import { uniqueEntryId } from "./ids.ts";
import { listAllSessions, listSessions } from "./list-sessions.ts";
import { type LoadedFile, loadSessionFile, openMostRecent, openSessionFile, preloadedSession, writeFork } from "./session-files.ts";
import { type NewSessionOptions, resolveDeps, resolveUserPath, type SessionDeps, sessionDirFor, type SessionManagerOptions } from "./session-options.ts";
import { SessionView } from "./session-view.ts";
import { SessionWriter, type WriterState } from "./session-writer.ts";
import { currentSystemMessage } from "./system-message.ts";

/** Compaction fields beyond pi's signature. */
export interface CompactionExtra {
  /** Stored as given; when absent it is replayed from the context's system messages (as pi does); null stores none. */
  systemMessage?: SystemMessage | null;
  /** The seeds' checkpoint form: the kept messages embedded in the entry. */
  retainedTail?: AgentMessage[];
}

/** Progress callback of the listing statics. */
export interface ListProgress {
  onProgress?: (loaded: number, total: number) => void;
}

/**
 * A pi session file, or an in-memory session, that grows by appends. Await each call: the
 * async ones run in call order, while `newSession`, `branch` and `resetLeaf` act at once.
 *
 * @example An in-memory session
 * ```ts
 * const session = SessionManager.inMemory("/work");
 * const id = await session.appendMessage({ role: "user", content: "hi", timestamp: 0 });
 * session.getLeafId() === id; // true
 * session.buildSessionContext().messages.length; // 1
 * ```
 */
export class SessionManager extends SessionView {
  #deps: SessionDeps;
  #cwd: string;
  #sessionDir: string;
  #persist: boolean;
  #file: string | undefined;
  #writer: SessionWriter | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(deps: SessionDeps, cwd: string, sessionDir: string, persist: boolean) {
    super();
    this.#deps = deps;
    this.#cwd = cwd;
    this.#sessionDir = sessionDir;
    this.#persist = persist;
  }

  /** A new session in `sessionDir` (default: the cwd's folder). Nothing is written before a conversation. */
  static create(cwd: string, sessionDir?: string, options: SessionManagerOptions & NewSessionOptions = {}): SessionManager {
    const deps = resolveDeps(options);
    const resolvedCwd = resolveUserPath(deps, cwd);
    const manager = new SessionManager(deps, resolvedCwd, sessionDirFor(deps, resolvedCwd, sessionDir).dir, true);
    manager.newSession(options);
    return manager;
  }

  /**
   * The session at `path`, read without writing to it. A missing file becomes a new session with
   * that path; a non-empty file without a session header throws `NotASessionError`.
   */
  static async open(path: string, sessionDir?: string, options: SessionManagerOptions & { cwdOverride?: string } = {}): Promise<SessionManager> {
    const deps = resolveDeps(options);
    const { file, loaded, cwd, dir } = await openSessionFile(deps, path, sessionDir, options.cwdOverride);
    const manager = new SessionManager(deps, cwd, dir, true);
    manager.#adopt(file, loaded);
    return manager;
  }

  /** The most recently modified session of the dir (a custom dir: of this cwd), opened with `cwd`; else a new one. */
  static async continueRecent(cwd: string, sessionDir?: string, options: SessionManagerOptions = {}): Promise<SessionManager> {
    const deps = resolveDeps(options);
    const found = await openMostRecent(deps, cwd, sessionDir);
    const manager = new SessionManager(deps, found.cwd, found.dir, true);
    if (found.recent) manager.#adopt(found.recent.file, found.recent.loaded);
    else manager.newSession();
    return manager;
  }

  /** A session that is never written. `entries` (a header and entries, or entries only) preload it. */
  static inMemory(cwd?: string, options: SessionManagerOptions & NewSessionOptions = {}, entries?: readonly FileEntry[]): SessionManager {
    const deps = resolveDeps(options);
    const manager = new SessionManager(deps, resolveUserPath(deps, cwd ?? deps.storage.processCwd), "", false);
    const preloaded = preloadedSession(entries ?? []);
    if (!preloaded.header) manager.newSession(options);
    manager.setContents(preloaded.header ?? manager.getHeader(), preloaded.entries);
    return manager;
  }

  /**
   * A copy of a whole session (every entry and branch) as a new session of `targetCwd`, written
   * at once. Unlike pi, an old-format source is migrated first, so the copy is a valid v3 file.
   */
  static async forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options: SessionManagerOptions & { id?: string } = {},
  ): Promise<SessionManager> {
    const deps = resolveDeps(options);
    const fork = await writeFork(deps, sourcePath, targetCwd, { sessionDir, id: options.id });
    const manager = new SessionManager(deps, fork.cwd, fork.dir, true);
    manager.setContents(fork.header, fork.entries);
    manager.#useWriter(fork.writer);
    return manager;
  }

  /** The sessions of `cwd` (pi's `list`), newest activity first. */
  static list(cwd: string, sessionDir?: string, options: SessionManagerOptions & ListProgress = {}): Promise<SessionInfo[]> {
    const deps = resolveDeps(options);
    const resolvedCwd = resolveUserPath(deps, cwd);
    const { dir, filterCwd } = sessionDirFor(deps, resolvedCwd, sessionDir);
    const cwdFilter = filterCwd ? resolvedCwd : undefined;
    return listSessions(deps.fs, dir, { cwdFilter, processCwd: deps.storage.processCwd, onProgress: options.onProgress });
  }

  /** Every session of every project, or of one flat custom dir (pi's `listAll`). */
  static listAll(options: SessionManagerOptions & ListProgress & { sessionDir?: string } = {}): Promise<SessionInfo[]> {
    const deps = resolveDeps(options);
    const processCwd = deps.storage.processCwd;
    const sessionDir = options.sessionDir ? sessionDirFor(deps, processCwd, options.sessionDir).dir : undefined;
    return listAllSessions(deps.fs, { agentDir: deps.agentDir, sessionDir }, { processCwd, onProgress: options.onProgress });
  }

  /** Starts a new empty session (nothing written yet); returns its file path (undefined in memory). */
  newSession(options: NewSessionOptions = {}): string | undefined {
    if (options.id !== undefined && !isValidSessionId(options.id)) throw new InvalidSessionIdError(options.id);
    const id = options.id ?? this.#deps.newSessionId();
    const timestamp = this.#deps.clock().toISOString();
    this.setContents(build.sessionHeader(id, timestamp, this.#cwd, options.parentSession), []);
    this.#setFile(this.#persist ? joinPath(this.#sessionDir, sessionFileName(timestamp, id)) : undefined, { kind: "pending" });
    return this.#file;
  }

  /** Switches to the session at `path` (a missing file becomes a new session there). Never writes. */
  setSessionFile(path: string): Promise<void> {
    return this.#run(async () => {
      const file = resolveUserPath(this.#deps, path);
      this.#adopt(file, await loadSessionFile(this.#deps.fs, file));
    });
  }

  /**
   * Starts a new session from the path root..`leafId` (pi 1.6 rules: see `branchedEntries`),
   * `parentSession` being the current file. Written at once if the path holds a conversation.
   * Returns the new file path; in memory, replaces the contents and returns undefined.
   */
  createBranchedSession(leafId: string): Promise<string | undefined> {
    return this.#run(async () => {
      const path = this.getBranch(leafId);
      if (path.length === 0) throw new UnknownEntryError(leafId);
      const timestamp = this.#deps.clock().toISOString();
      const sessionId = this.#deps.newSessionId();
      const parentSession = this.#persist ? this.#file : undefined;
      const identity = { sessionId, timestamp, cwd: this.#cwd, parentSession };
      const { header, entries } = branchedSession(path, this.index.labels, this.#deps.newId, identity);
      const index = new EntryIndex(entries);
      if (!this.#persist) {
        this.setContents(header, entries, index);
        return undefined;
      }
      const writer = new SessionWriter(this.#deps.fs, joinPath(this.#sessionDir, sessionFileName(timestamp, sessionId)), { kind: "pending" });
      if (index.hasConversation) await writer.writeAll({ header, entries, hasConversation: true });
      this.setContents(header, entries, index);
      this.#useWriter(writer);
      return writer.path;
    });
  }

  /** Appends a message at the leaf (compaction and branch summaries have their own methods); returns its id. */
  appendMessage(message: AgentMessage): Promise<string> {
    return this.#appendId((base) => build.messageEntry(base, message));
  }

  /** Records a thinking level change at the leaf; returns its id. */
  appendThinkingLevelChange(thinkingLevel: string): Promise<string> {
    return this.#appendId((base) => build.thinkingLevelChangeEntry(base, thinkingLevel));
  }

  /** Records a model change at the leaf; returns its id. */
  appendModelChange(provider: string, modelId: string): Promise<string> {
    return this.#appendId((base) => build.modelChangeEntry(base, provider, modelId));
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
    return this.#appendId((base) => {
      let systemMessage = extra.systemMessage ?? undefined;
      if (extra.systemMessage === undefined) {
        const replayed = currentSystemMessage(this.buildSessionProjection().messages);
        if (replayed) systemMessage = { ...replayed, timestamp: new Date(base.timestamp).getTime() };
      }
      const retainedTail = extra.retainedTail;
      const fields = { summary, firstKeptEntryId: firstKeptEntryId ?? base.id, tokensBefore, details, usage, fromHook, systemMessage, retainedTail };
      return build.compactionEntry(base, fields);
    });
  }

  /** Stores extension state at the leaf; it never reaches the model context. Returns its id. */
  appendCustomEntry(customType: string, data?: unknown): Promise<string> {
    return this.#appendId((base) => build.customEntry(base, customType, data));
  }

  /** Names the session: runs of CR/LF become one space, then the name is trimmed (empty clears it). */
  appendSessionInfo(name: string): Promise<string> {
    return this.#appendId((base) => build.sessionInfoEntry(base, name.replace(/[\r\n]+/g, " ").trim()));
  }

  /** Appends an extension message that does reach the model context (as role `custom`); returns its id. */
  appendCustomMessageEntry(customType: string, content: string | (TextContent | ImageContent)[], display: boolean, details?: unknown): Promise<string> {
    return this.#appendId((base) => build.customMessageEntry(base, customType, content, display, details));
  }

  /** Sets, or with undefined or "" clears, the label of an existing entry. */
  appendLabelChange(targetId: string, label: string | undefined): Promise<string> {
    return this.#appendId((base) => build.labelEntry(base, targetId, label), () => {
      if (!this.index.byId.has(targetId)) throw new UnknownEntryError(targetId);
    });
  }

  /** Records usage outside any message (e.g. cache warming); returns the entry. */
  appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): Promise<UsageEntry> {
    return this.#run(() => this.#append((base) => build.usageEntry(base, kind, provider, model, usage, note)));
  }

  /** Replaces (or with null leaves out) a message of the active branch in the model context. */
  appendContextEdit(targetId: string, replacement: ContextEditReplacement): Promise<string> {
    let stored: ContextEditReplacement = null;
    return this.#appendId((base) => build.contextEditEntry(base, targetId, stored), () => {
      const onBranch = this.getBranch().some((entry) => entry.id === targetId);
      stored = checkedContextEdit(targetId, this.index.byId.get(targetId), onBranch, replacement);
    });
  }

  /**
   * Appends a branch summary as a child of `branchFromId` (null: a new root) and makes it the
   * leaf; `fromId` is the old leaf (or "root"). If the write fails, the leaf stays where it was.
   */
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: Usage): Promise<string> {
    const make = (base: build.EntryBase) => build.branchSummaryEntry({ ...base, parentId: branchFromId }, base.parentId ?? "root", summary, details, usage, fromHook);
    return this.#appendId(make, () => {
      if (branchFromId !== null && !this.index.byId.has(branchFromId)) throw new UnknownEntryError(branchFromId);
    });
  }

  /** The working directory new headers record (absolute). */
  getCwd(): string {
    return this.#cwd;
  }

  /** Where new and branched session files go ("" in memory). */
  getSessionDir(): string {
    return this.#sessionDir;
  }

  /** The current file (it may not exist yet); undefined for an in-memory session. */
  getSessionFile(): string | undefined {
    return this.#file;
  }

  /** False for `inMemory` sessions, which never write. */
  isPersisted(): boolean {
    return this.#persist;
  }

  /** Runs mutations one at a time, in call order, whether or not earlier ones failed. */
  #run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(task, task);
    this.#queue = result.catch(() => {});
    return result;
  }

  #appendId(make: (base: build.EntryBase) => SessionEntry, validate?: () => void): Promise<string> {
    return this.#run(async () => (await this.#append(make, validate)).id);
  }

  /**
   * Adds an entry at the leaf (`base.parentId` is the leaf) and persists it; if the write
   * throws, memory is put back as it was. `validate` runs first, before any id or time is taken.
   *
   * Entries another process appended to the file since we last wrote are taken in first (the
   * writer reads them under the file lock). If the leaf was at the last entry we knew (the usual
   * case: following the conversation), it follows them to the file's new last entry, as reopening
   * the file would; if the caller had moved the leaf (`branch`, `resetLeaf`), it stays there.
   */
  async #append<T extends SessionEntry>(make: (base: build.EntryBase) => T, validate?: () => void): Promise<T> {
    validate?.();
    const undos: (() => void)[] = [];
    let entry: T | undefined;
    const add = (others: readonly SessionEntry[]) => {
      const leaf = this.getLeafId();
      const atTip = leaf === (this.entries.at(-1)?.id ?? null);
      for (const other of others) undos.push(this.addEntry(other));
      if (others.length > 0 && !atTip) {
        const followed = this.getLeafId();
        this.#moveLeaf(leaf);
        undos.push(() => this.#moveLeaf(followed));
      }
      const id = uniqueEntryId(this.index.byId, this.#deps.newId);
      entry = make({ id, parentId: this.getLeafId(), timestamp: this.#deps.clock().toISOString() });
      undos.push(this.addEntry(entry));
      return { header: this.getHeader(), entries: this.entries, hasConversation: this.index.hasConversation, entry };
    };
    try {
      if (this.#writer) await this.#writer.persist(add);
      else add([]);
    } catch (error) {
      for (let i = undos.length - 1; i >= 0; i--) undos[i]();
      throw error;
    }
    return entry!;
  }

  #moveLeaf(id: string | null): void {
    if (id === null) this.resetLeaf();
    else this.branch(id);
  }

  #setFile(file: string | undefined, state: WriterState): void {
    this.#file = file;
    this.#writer = this.#persist && file !== undefined ? new SessionWriter(this.#deps.fs, file, state) : undefined;
  }

  #useWriter(writer: SessionWriter): void {
    this.#file = writer.path;
    this.#writer = writer;
  }

  /** Takes over what `loadSessionFile` found at `file`. */
  #adopt(file: string, loaded: LoadedFile): void {
    if (loaded.kind !== "session") {
      this.newSession();
      this.#setFile(file, { kind: "pending" });
      return;
    }
    const { header, entries, migrated, version, byteLength, endsWithNewline } = loaded.file;
    this.setContents(header, entries);
    const end = { size: byteLength, newline: endsWithNewline };
    this.#setFile(file, migrated ? { kind: "migrate", fromVersion: version, byteLength } : { kind: "written", end });
  }
}
