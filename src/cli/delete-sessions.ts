/**
 * Removing sessions, shared by `delete` and `prune`: ask first on a terminal (refuse where
 * nobody can answer), then move each file to the trash (or unlink it with `permanent`), going
 * on past a file that cannot move.
 * @module
 */
import type { CliContext } from "./context.ts";
import { CliError, describeError } from "./errors.ts";
import { moveToTrash } from "./trash.ts";

/** What happened to one file. */
export interface DeleteResult {
  path: string;
  action: "trashed" | "deleted" | "failed";
  trashPath?: string;
  message?: string;
}

/** Asks on a terminal whether to delete `paths`; refuses (exit 2) where nobody can answer. */
export async function confirmDelete(ctx: CliContext, paths: string[], permanent: boolean): Promise<boolean> {
  const { stdinIsTTY, confirm } = ctx.deps;
  if (!stdinIsTTY || !confirm) {
    const why = stdinIsTTY ? ": there is no way to ask for confirmation here" : " when not on a terminal";
    throw new CliError("needs-confirmation", `Refusing to delete without --yes${why}`, "Pass --yes to delete without asking");
  }
  for (const path of paths) ctx.deps.stderr(`  ${path}\n`);
  const what = permanent ? "This cannot be undone" : "They go to the trash";
  return await confirm(`Delete ${paths.length} session(s)? ${what}`);
}

async function deleteOne(ctx: CliContext, path: string, permanent: boolean): Promise<DeleteResult> {
  if (permanent) {
    await ctx.fs.remove(path);
    return { path, action: "deleted" };
  }
  const { trashPath } = await moveToTrash(
    { fs: ctx.fs, storage: ctx.deps.storage, exec: ctx.deps.exec, now: ctx.deps.now },
    path,
  );
  return trashPath === undefined ? { path, action: "trashed" } : { path, action: "trashed", trashPath };
}

/**
 * Deletes every path, printing a line per file unless `--json`; a failure is reported on
 * stderr and the others still go. Returns the results and the worst exit code.
 */
export async function deleteSessions(ctx: CliContext, paths: string[], permanent: boolean): Promise<{ results: DeleteResult[]; exitCode: number }> {
  const results: DeleteResult[] = [];
  let exitCode = 0;
  for (const path of paths) {
    try {
      const result = await deleteOne(ctx, path, permanent);
      results.push(result);
      if (!ctx.json) ctx.out(`${result.action === "deleted" ? "deleted" : "moved to trash"}: ${path}`);
    } catch (error) {
      // Keep going: one file that cannot move must not stop the others.
      const { exitCode: code, lines } = describeError(error);
      ctx.deps.stderr(lines.join("\n") + "\n");
      results.push({ path, action: "failed", message: lines[0].replace(/^pi-session: /, "") });
      exitCode = Math.max(exitCode, code);
    }
  }
  return { results, exitCode };
}
