/**
 * Everything a session manager decides, written once: the session in memory (`SessionView`),
 * where its file is, and every mutation as a step function (`io-steps.ts`) that adds entries
 * and yields the writes they need. The async `SessionManager` runs the steps with `runSteps`,
 * `pi-session/compat`'s synchronous one with `runStepsSync`; neither holds session logic.
 * @module
 */
import type { FileEntry, SessionEntry } from "../core/format/types.ts";
import { defaultSessionDir, isValidSessionId, sessionFileName } from "../core/storage/layout.ts";
import { joinPath, resolvePath } from "../core/storage/paths.ts";
import type { Steps } from "../io/io-steps.ts";
import type { LockKeeper } from "../io/lock-keeper.ts";
import { branchedSession } from "./branched-session.ts";
import * as build from "./entry-builders.ts";
import { EntryIndex } from "./entry-index.ts";
import { InvalidSessionIdError, UnknownEntryError } from "./errors.ts";
import { uniqueEntryId } from "./ids.ts";
import { type LoadedFile, loadSessionFileSteps, openMostRecent, openSessionFile, preloadedSession, writeFork } from "./session-files.ts";
import { type NewSessionOptions, type PathDeps, resolveUserPath, sessionDirFor } from "./session-options.ts";
import { SessionView } from "./session-view.ts";
import { SessionWriter, type WriterState } from "./session-writer.ts";
import type { NewEntry } from "./new-entries.ts";

export type { CompactionExtra, NewEntry } from "./new-entries.ts";

/** What the core needs: `PathDeps`, and optionally a keeper that holds a file's lock across a burst of appends. */
export interface CoreDeps extends PathDeps {
  lockKeeper?: LockKeeper;
}

/** How a shell makes an empty manager of its own class. */
export type MakeManager<M> = (cwd: string, sessionDir: string, persist: boolean) => M;

/** The shared body of both session managers; the shells add how steps are run. */
export class SessionCore extends SessionView {
  #deps: CoreDeps;
  #cwd: string;
  #sessionDir: string;
  #persist: boolean;
  #file: string | undefined;
  #writer: SessionWriter | undefined;

  protected constructor(deps: CoreDeps, cwd: string, sessionDir: string, persist: boolean) {
    super();
    this.#deps = deps;
    this.#cwd = cwd;
    this.#sessionDir = sessionDir;
    this.#persist = persist;
  }

  /** `create`: a new session in `sessionDir` (default: the cwd's folder); nothing written yet. */
  protected static createIn<M extends SessionCore>(deps: PathDeps, make: MakeManager<M>, cwd: string, sessionDir?: string, options: NewSessionOptions = {}): M {
    const resolvedCwd = resolveUserPath(deps, cwd);
    const manager = make(resolvedCwd, sessionDirFor(deps, resolvedCwd, sessionDir).dir, true);
    manager.newSession(options);
    return manager;
  }

  /** `open`: the session at `path`, read without writing to it. */
  protected static *openSteps<M extends SessionCore>(deps: PathDeps, make: MakeManager<M>, path: string, sessionDir?: string, cwdOverride?: string): Steps<M> {
    const { file, loaded, cwd, dir } = yield* openSessionFile(deps, path, sessionDir, cwdOverride);
    const manager = make(cwd, dir, true);
    manager.adopt(file, loaded);
    return manager;
  }

  /** `continueRecent`: the most recently modified session of the dir, else a new one. */
  protected static *continueRecentSteps<M extends SessionCore>(deps: PathDeps, make: MakeManager<M>, cwd: string, sessionDir?: string): Steps<M> {
    const found = yield* openMostRecent(deps, cwd, sessionDir);
    const manager = make(found.cwd, found.dir, true);
    if (found.recent) manager.adopt(found.recent.file, found.recent.loaded);
    else manager.newSession();
    return manager;
  }

  /** `inMemory`: never written; `entries` (a header and entries, or entries only) preload it. */
  protected static inMemoryWith<M extends SessionCore>(deps: PathDeps, make: MakeManager<M>, cwd: string, options: NewSessionOptions = {}, entries?: readonly FileEntry[]): M {
    const manager = make(resolveUserPath(deps, cwd), "", false);
    const preloaded = preloadedSession(entries ?? []);
    if (!preloaded.header) manager.newSession(options);
    manager.setContents(preloaded.header ?? manager.getHeader(), preloaded.entries);
    return manager;
  }

  /** `forkFrom`: every entry of the (migrated) source under a new header, written at once. */
  protected static *forkSteps<M extends SessionCore>(
    deps: PathDeps,
    make: MakeManager<M>,
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    id?: string,
  ): Steps<M> {
    const fork = yield* writeFork(deps, sourcePath, targetCwd, { sessionDir, id });
    const manager = make(fork.cwd, fork.dir, true);
    manager.setContents(fork.header, fork.entries);
    manager.useWriter(fork.writer);
    return manager;
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

  /** True when new sessions go to the cwd's default folder under the agent dir. */
  usesDefaultSessionDir(): boolean {
    const processCwd = this.#deps.storage.processCwd;
    return resolvePath(processCwd, this.#sessionDir) === defaultSessionDir(this.#cwd, this.#deps.agentDir, processCwd);
  }

  /** False for `inMemory` sessions, which never write. */
  isPersisted(): boolean {
    return this.#persist;
  }

  /** Switches to the session at `path` (a missing file becomes a new session there). Never writes. */
  protected *setSessionFileSteps(path: string): Steps<void> {
    const file = resolveUserPath(this.#deps, path);
    this.adopt(file, yield* loadSessionFileSteps(file));
  }

  /** See `SessionManager.createBranchedSession`. */
  protected *createBranchedSessionSteps(leafId: string): Steps<string | undefined> {
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
    const writer = new SessionWriter(joinPath(this.#sessionDir, sessionFileName(timestamp, sessionId)), { kind: "pending" });
    if (index.hasConversation) yield* writer.writeAll({ header, entries, hasConversation: true });
    this.setContents(header, entries, index);
    this.useWriter(writer);
    return writer.path;
  }

  /**
   * Adds `entry` at the leaf (`base.parentId` is the leaf) and persists it; if the write
   * throws, memory is put back as it was. Its `check` runs first (unless the caller ran it),
   * before any id or time is taken. Nothing happens until the steps are run, so a queued call
   * decides when its turn comes.
   *
   * Entries another process appended to the file since we last wrote are taken in first (the
   * writer reads them under the file lock). If the leaf was at the last entry we knew (the usual
   * case: following the conversation), it follows them to the file's new last entry, as reopening
   * the file would; if the caller had moved the leaf (`branch`, `resetLeaf`), it stays there.
   */
  protected *appendSteps<T extends SessionEntry>(entry: NewEntry<T>, checked = false): Steps<T> {
    if (!checked) entry.check?.();
    const undos: (() => void)[] = [];
    let made: T | undefined;
    const add = (others: readonly SessionEntry[]) => {
      const leaf = this.getLeafId();
      const atTip = leaf === (this.entries.at(-1)?.id ?? null);
      for (const other of others) undos.push(this.addEntry(other));
      if (others.length > 0 && !atTip) {
        const followed = this.getLeafId();
        this.#moveLeaf(leaf);
        undos.push(() => this.#moveLeaf(followed));
      }
      made = entry.make(this.#base());
      undos.push(this.addEntry(made));
      return { header: this.getHeader(), entries: this.entries, hasConversation: this.index.hasConversation, entry: made };
    };
    try {
      if (this.#writer) yield* this.#writer.persist(add, this.#deps.lockKeeper);
      else add([]);
    } catch (error) {
      for (let i = undos.length - 1; i >= 0; i--) undos[i]();
      throw error;
    }
    return made!;
  }

  /**
   * `appendSteps` without steps, for a line of a synchronous burst whose lock and open file the
   * lock keeper holds (`SessionWriter.appendKept`); the caller ran `entry.check`. The entry is
   * added to memory once its line is written. Undefined when that does not apply: nothing was
   * done, and `appendSteps(entry, true)` does the append.
   */
  protected appendKept<T extends SessionEntry>(entry: NewEntry<T>): T | undefined {
    const keeper = this.#deps.lockKeeper;
    if (this.#writer === undefined || keeper === undefined) return undefined;
    const made = this.#writer.appendKept(keeper, () => entry.make(this.#base()));
    if (made !== undefined) this.addEntry(made);
    return made;
  }

  /** A new entry's id (unique in the session), parent (the leaf) and time. */
  #base(): build.EntryBase {
    return { id: uniqueEntryId(this.index.byId, this.#deps.newId), parentId: this.getLeafId(), timestamp: this.#deps.clock().toISOString() };
  }

  #moveLeaf(id: string | null): void {
    if (id === null) this.resetLeaf();
    else this.branch(id);
  }

  #setFile(file: string | undefined, state: WriterState): void {
    this.#file = file;
    this.#writer = this.#persist && file !== undefined ? new SessionWriter(file, state) : undefined;
  }

  /** Makes `writer`'s file the current one (a fork or branched session just written). */
  protected useWriter(writer: SessionWriter): void {
    this.#file = writer.path;
    this.#writer = writer;
  }

  /** Takes over what `loadSessionFile` found at `file`. */
  protected adopt(file: string, loaded: LoadedFile): void {
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
