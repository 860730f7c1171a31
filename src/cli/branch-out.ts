/**
 * `fork` and `clone` both end here: open the source, pick the leaf, and write the path from
 * the root to it as a new session (pi's `createBranchedSession`), beside the source or in
 * the `--cwd` directory's sessions. A current-format file is read lean and its path read again
 * line by line (`branch-file.ts`), so a 1 GB session branches in bounded memory; an older one
 * is migrated in memory by `SessionManager.open`.
 * @module
 */
import type { MessageEntry, SessionEntry } from "../core/format/types.ts";
import { dirName, joinPath } from "../core/storage/paths.ts";
import { sessionFileName } from "../core/storage/layout.ts";
import { walkToRoot } from "../core/tree/walk-path.ts";
import { SessionTree } from "../core/tree/session-tree.ts";
import { branchBytes, readBranchSource, readEntryAt, writeNewSession } from "../session/branch-file.ts";
import { sessionHeader } from "../session/entry-builders.ts";
import type { ResolvedLabel } from "../session/entry-index.ts";
import { UnknownEntryError } from "../session/errors.ts";
import { SessionManager } from "../session/mod.ts";
import { resolveDeps, resolveUserPath, sessionDirFor } from "../session/session-options.ts";
import type { CliContext } from "./context.ts";
import { managerOptions, requireSession, writing } from "./session-write.ts";

/** The leaf to branch at, or null when there is nothing to branch (`why` says so). */
export type LeafChoice = { leafId: string } | { leafId: null; why: string };

/** What a choice may ask of the source besides its tree: the leaf pi would continue from, and whole entries. */
export interface BranchSourceView {
  getLeafId(): string | null;
  /** The entry with this id as the file holds it (the tree's entries may be lean copies). */
  fullEntry(id: string): Promise<SessionEntry | undefined>;
}

type Choose = (tree: SessionTree, source: BranchSourceView) => LeafChoice | Promise<LeafChoice>;

const NOTHING_TO_WRITE = "Nothing to write yet: the branch holds no conversation (pi writes a session at its first user or assistant message)";

/**
 * Writes the branch root..leaf of the session at `path` as a new session and prints it.
 * Like pi, a branch without a user or assistant message is not written (exit 1).
 */
export async function branchOut(ctx: CliContext, path: string, choose: Choose): Promise<number> {
  const version = await requireSession(ctx, path);
  if (version >= 3) {
    const code = await streamedBranchOut(ctx, path, choose);
    if (code !== undefined) return code;
  }
  // `--cwd` (or `--session-dir`) places the new session elsewhere, as pi's forkFrom does;
  // otherwise it goes beside the source with the source's cwd, as pi's /fork does.
  const elsewhere = ctx.options.cwd !== undefined || ctx.options.sessionDir !== undefined;
  const sessionDir = elsewhere ? (await ctx.sessionDir()).dir : undefined;
  const cwdOverride = ctx.options.cwd !== undefined ? ctx.cwd : undefined;
  const manager = await SessionManager.open(path, sessionDir, { ...managerOptions(ctx), cwdOverride });
  const view: BranchSourceView = { getLeafId: () => manager.getLeafId(), fullEntry: async (id) => manager.getEntry(id) };
  const choice = await choose(new SessionTree(manager.getEntries()), view);
  if (choice.leafId === null) {
    ctx.note(choice.why);
    return 1;
  }
  const target = manager.getSessionDir();
  const file = await writing(target, () => manager.createBranchedSession(choice.leafId));
  if (file === undefined || (await ctx.fs.stat(file)) === null) {
    ctx.note(NOTHING_TO_WRITE);
    return 1;
  }
  const header = manager.getHeader();
  if (ctx.json) ctx.outJson({ path: file, id: header.id, parentSession: header.parentSession ?? null, leafId: manager.getLeafId() });
  else ctx.out(file);
  return 0;
}

function isConversation(entry: SessionEntry): boolean {
  const role = entry.type === "message" ? (entry as MessageEntry).message?.role : undefined;
  return role === "user" || role === "assistant";
}

/** `branchOut` over a current-format file read lean; undefined when only the in-memory way gives the same bytes. */
async function streamedBranchOut(ctx: CliContext, path: string, choose: Choose): Promise<number | undefined> {
  const deps = resolveDeps(managerOptions(ctx));
  const file = resolveUserPath(deps, path);
  const elsewhere = ctx.options.cwd !== undefined || ctx.options.sessionDir !== undefined;
  const sessionDir = elsewhere ? (await ctx.sessionDir()).dir : undefined;
  const cwdOverride = ctx.options.cwd !== undefined ? ctx.cwd : undefined;
  // The lean entries go out of scope with `choosePath`: they are not needed while the path is written.
  const chosen = await choosePath(ctx, file, choose);
  if (typeof chosen !== "object") return chosen;
  const cwd = resolveUserPath(deps, cwdOverride ?? chosen.headerCwd ?? deps.storage.processCwd);
  const dir = sessionDir ? sessionDirFor(deps, cwd, sessionDir).dir : dirName(file);
  const timestamp = deps.clock().toISOString();
  const sessionId = deps.newSessionId();
  const header = sessionHeader(sessionId, timestamp, cwd, file);
  const target = joinPath(dir, sessionFileName(timestamp, sessionId));
  let leafId: string | null = null;
  const { wanted, labels } = chosen;
  await writing(dir, () => writeNewSession(ctx.fs, target, () => branchBytes(ctx.fs, file, wanted, header, labels, deps.newId, (id) => leafId = id)));
  if (ctx.json) ctx.outJson({ path: target, id: header.id, parentSession: header.parentSession ?? null, leafId });
  else ctx.out(target);
  return 0;
}

/** The chosen path's line offsets and the labels to re-emit; an exit code; or undefined for the in-memory way. */
async function choosePath(
  ctx: CliContext,
  file: string,
  choose: Choose,
): Promise<{ wanted: number[]; labels: Map<string, ResolvedLabel>; headerCwd: string | undefined } | number | undefined> {
  const source = await readBranchSource(ctx.fs, file);
  if (source === null) return undefined;
  const view: BranchSourceView = {
    getLeafId: () => source.entries.at(-1)?.id ?? null,
    fullEntry: async (id) => {
      const entry = source.index.byId.get(id);
      return entry === undefined ? undefined : await readEntryAt(ctx.fs, file, source.offsetOf.get(entry)!);
    },
  };
  const choice = await choose(new SessionTree(source.entries), view);
  if (choice.leafId === null) {
    ctx.note(choice.why);
    return 1;
  }
  const leaf = source.index.byId.get(choice.leafId);
  if (leaf === undefined) throw new UnknownEntryError(choice.leafId);
  const branch = walkToRoot(leaf, source.index.byId).path;
  const wanted = branch.map((entry) => source.offsetOf.get(entry)!);
  // Lines out of file order (a parent after its child) are left to the in-memory way.
  for (let i = 1; i < wanted.length; i++) if (wanted[i] <= wanted[i - 1]) return undefined;
  if (!branch.some(isConversation)) {
    ctx.note(NOTHING_TO_WRITE);
    return 1;
  }
  const headerCwd = typeof source.header.cwd === "string" ? source.header.cwd : undefined;
  return { wanted, labels: source.index.labels, headerCwd };
}
