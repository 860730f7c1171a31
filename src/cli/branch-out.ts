/**
 * `fork` and `clone` both end here: open the source, pick the leaf, and write the path from
 * the root to it as a new session (pi's `createBranchedSession`), beside the source or in
 * the `--cwd` directory's sessions.
 * @module
 */
import { SessionTree } from "../core/tree/session-tree.ts";
import { SessionManager } from "../session/mod.ts";
import type { CliContext } from "./context.ts";
import { managerOptions, requireSession, writing } from "./session-write.ts";

/** The leaf to branch at, or null when there is nothing to branch (`why` says so). */
export type LeafChoice = { leafId: string } | { leafId: null; why: string };

/**
 * Writes the branch root..leaf of the session at `path` as a new session and prints it.
 * Like pi, a branch without a user or assistant message is not written (exit 1).
 */
export async function branchOut(ctx: CliContext, path: string, choose: (tree: SessionTree, manager: SessionManager) => LeafChoice): Promise<number> {
  await requireSession(ctx, path);
  // `--cwd` (or `--session-dir`) places the new session elsewhere, as pi's forkFrom does;
  // otherwise it goes beside the source with the source's cwd, as pi's /fork does.
  const elsewhere = ctx.options.cwd !== undefined || ctx.options.sessionDir !== undefined;
  const sessionDir = elsewhere ? (await ctx.sessionDir()).dir : undefined;
  const cwdOverride = ctx.options.cwd !== undefined ? ctx.cwd : undefined;
  const manager = await SessionManager.open(path, sessionDir, { ...managerOptions(ctx), cwdOverride });
  const choice = choose(new SessionTree(manager.getEntries()), manager);
  if (choice.leafId === null) {
    ctx.note(choice.why);
    return 1;
  }
  const target = manager.getSessionDir();
  const file = await writing(target, () => manager.createBranchedSession(choice.leafId));
  if (file === undefined || (await ctx.fs.stat(file)) === null) {
    ctx.note("Nothing to write yet: the branch holds no conversation (pi writes a session at its first user or assistant message)");
    return 1;
  }
  const header = manager.getHeader();
  if (ctx.json) ctx.outJson({ path: file, id: header.id, parentSession: header.parentSession ?? null, leafId: manager.getLeafId() });
  else ctx.out(file);
  return 0;
}
