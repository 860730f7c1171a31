/**
 * `pi-session/compat`: pi 1.6's session API, drop-in and synchronous, on Node, Deno and Bun.
 * Import from here instead of `@earendil-works/pi-coding-agent`'s session manager and the same
 * calls (positional arguments included) return the same things at the same time: `create`,
 * `open`, `continueRecent`, `inMemory`, `forkFrom`, `findById`, `setSessionFile`,
 * `createBranchedSession`, `branchWithSummary` and every `append*` are synchronous (an append
 * returns the new id at once, `appendUsage` the entry); `list`/`listAll` are async with pi's
 * progress callback and abort signal. Errors a caller may match on carry pi's messages.
 *
 * It is a thin shell: the decisions are those of the async `SessionManager` of
 * `pi-session/session` (both run the same step functions, this one over a `SyncFileSystem`).
 * Every factory takes one more optional argument pi does not have (`CompatOptions`: the disk,
 * clock and id sources), last.
 *
 * Where it differs from pi 1.6, on purpose (README, "Where we differ from pi"):
 * - Reading never writes: `open`/`setSessionFile`/`loadEntriesFromFile` do not complete a
 *   torn last line, do not write a header into an empty file, and an old-format file is
 *   migrated in memory only; it is rewritten (after a `.v<N>.bak` backup, atomically) at the
 *   first append. `create`, `open`, `continueRecent` and `list` create no folders;
 *   a folder is made when a session file is first written (`getDefaultSessionDir` still
 *   creates the folder it names, as pi's does).
 * - Walks are cycle-proof: `getBranch`, the context and the tree stop at a parent loop.
 * - `forkFrom` migrates an old-format source first, so the copy is a valid current file.
 * - New files are 0600 and written whole (exclusive create); appends take the file lock. A
 *   synchronous burst of appends takes it once: it is kept, with the file open, until the burst
 *   ends (a microtask), the process exits, or a second has passed; each line still goes out
 *   under it after a check that nobody else appended (one `fstat` of the open file: its size
 *   and that it is still linked; what others appended is taken in first, by the path).
 * - `open` (and `continueRecent`) of a clean current-format file reads its skeleton only (ids, parents, byte ranges,
 *   labels, name); an entry's line is parsed when first asked for (`getEntry`, the context
 *   parses only what it needs; `getEntries`, the tree and any append read them all), always as
 *   the same object. Lines are read again by the path: a file replaced on disk since it was
 *   opened (not merely appended to) makes such a read throw `session-changed`, where pi, which
 *   held everything, would answer from memory.
 * - An append that fails leaves memory as it was, the leaf included (pi's `branchWithSummary`
 *   keeps the moved leaf).
 *
 * @example
 * ```ts
 * import { SessionManager } from "pi-session/compat";
 *
 * const session = SessionManager.inMemory("/work");
 * const id = session.appendMessage({ role: "user", content: "hi", timestamp: 0 });
 * session.getEntry(id)?.type; // "message"
 * ```
 * @module
 */
import type { FileEntry } from "../core/format/types.ts";
import { defaultSessionDir, isValidSessionId } from "../core/storage/layout.ts";
import { nodeSyncFileSystem } from "../io/node-sync.ts";
import { runStepsSync } from "../io/run-sync.ts";
import type { SyncFileSystem } from "../io/sync-file-system.ts";
import { InvalidSessionIdError, SessionError } from "../session/errors.ts";
import { findMostRecentSteps } from "../session/session-files.ts";
import { resolveDeps, resolveUserPath } from "../session/session-options.ts";
import type { ContextEditReplacement } from "../session/context-edit.ts";
import { loadEntriesSteps } from "./pi-entries.ts";
import type { SessionManager } from "./session-manager.ts";

export { SessionManager, type CompatOptions, type SessionListProgress } from "./session-manager.ts";
export { getLatestCompactionEntry, migrateSessionEntries, parseSessionEntries } from "./pi-entries.ts";
export { buildContextEntries } from "../core/context/build-context-entries.ts";
export { sessionEntryToContextMessages } from "../core/context/entry-messages.ts";
export { buildSessionContext, buildSessionProjection, projectContextEntry } from "../core/context/session-projection.ts";
export { CURRENT_SESSION_VERSION } from "../core/format/types.ts";
export type {
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  CustomEntry,
  CustomMessageEntry,
  FileEntry,
  LabelEntry,
  MessageEntry as SessionMessageEntry,
  ModelChangeEntry,
  ProjectedEntry as ProjectedSessionEntry,
  SessionContext,
  SessionEntry,
  SessionEntryBase,
  SessionHeader,
  SessionInfoEntry,
  SessionProjection,
  SessionTreeNode,
  ThinkingLevelChangeEntry,
  UsageEntry,
} from "../core/format/types.ts";
export type { SessionInfo } from "../core/info/session-info.ts";
export type { NewSessionOptions } from "../session/session-options.ts";
export type { SyncFileSystem } from "../io/sync-file-system.ts";
export { nodeSyncFileSystem } from "../io/node-sync.ts";

/** What a replacement may put in place of an entry's content (pi's `ContextEditableContent`). */
export type ContextEditableContent = NonNullable<ContextEditReplacement>["content"];

/** The read-only part of the manager, as pi names it. */
export type ReadonlySessionManager = Pick<
  SessionManager,
  | "getCwd"
  | "getSessionDir"
  | "getSessionId"
  | "getSessionFile"
  | "getLeafId"
  | "getLeafEntry"
  | "getEntry"
  | "getLabel"
  | "getBranch"
  | "buildContextEntries"
  | "buildSessionProjection"
  | "getHeader"
  | "getEntries"
  | "getTree"
  | "getSessionName"
>;

/** Throws (pi's message) unless `id` is a session id pi accepts. */
export function assertValidSessionId(id: string): void {
  if (!isValidSessionId(id)) {
    const ours = new InvalidSessionIdError(id);
    throw new SessionError(ours.code, ours.message.replace(/: ".*"$/s, ""), ours.exitCode, ours.hint, { cause: ours });
  }
}

/** A file's parsed lines, not migrated; [] when missing or not a session. Never writes (pi completes a torn line). */
export function loadEntriesFromFile(filePath: string, fs: SyncFileSystem = nodeSyncFileSystem): FileEntry[] {
  const deps = resolveDeps();
  return runStepsSync(fs, loadEntriesSteps(resolveUserPath(deps, filePath)));
}

/** The most recently modified session file in `sessionDir` (with `cwd`: whose header cwd is it), or null. */
export function findMostRecentSession(sessionDir: string, cwd?: string, fs: SyncFileSystem = nodeSyncFileSystem): string | null {
  const deps = resolveDeps();
  const processCwd = deps.storage.processCwd;
  return runStepsSync(fs, findMostRecentSteps(resolveUserPath(deps, sessionDir), { cwd: cwd || undefined, processCwd }));
}

/** The cwd's default session folder under the agent dir, created if missing (as pi's does). */
export function getDefaultSessionDir(cwd: string, agentDir?: string, fs: SyncFileSystem = nodeSyncFileSystem): string {
  const deps = resolveDeps(agentDir === undefined ? {} : { agentDir });
  const dir = defaultSessionDir(cwd, deps.agentDir, deps.storage.processCwd);
  fs.mkdir(dir, { recursive: true });
  return dir;
}
