/**
 * `delete`: moves sessions to the trash (pi's rule: the `trash` program when present),
 * or unlinks them with `--permanent`. Checks every file is a session before touching any.
 * @module
 */
import { readHeader } from "../../session/read-header.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { CliError, describeError } from "../errors.ts";
import { resolveSessionRef } from "../resolve/session-ref.ts";
import { moveToTrash } from "../trash.ts";

/** One line of `delete --json`. */
export interface DeleteResult {
  path: string;
  action: "trashed" | "deleted" | "failed";
  trashPath?: string;
  message?: string;
}

async function resolveAll(ctx: CliContext, refs: string[]): Promise<string[]> {
  const paths: string[] = [];
  for (const ref of refs) {
    const path = await resolveSessionRef(ctx, ref);
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** Asks on a terminal; refuses (exit 2) where nobody can answer. */
async function confirmed(ctx: CliContext, paths: string[], permanent: boolean): Promise<boolean> {
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

/** `pi-session delete <ref>... [--yes] [--permanent]` */
export const deleteCommand: CommandSpec = {
  name: "delete",
  summary: "Move sessions to the trash (or delete them with --permanent); asks first on a terminal",
  args: ["<ref...>"],
  options: [
    { flags: "-y, --yes", description: "do not ask for confirmation" },
    { flags: "--permanent", description: "unlink the files instead of moving them to the trash" },
  ],
  examples: ["pi-session delete @", "pi-session delete 01a2b3 01c4d5 --yes", "pi-session delete ./old.jsonl --permanent --yes"],
  async run(ctx, refs, opts) {
    const permanent = Boolean(opts.permanent);
    const paths = await resolveAll(ctx, refs);
    const notSessions: string[] = [];
    for (const path of paths) if ((await readHeader(ctx.fs, path)) === null) notSessions.push(path);
    if (notSessions.length > 0) {
      for (const path of notSessions) ctx.deps.stderr(`pi-session: ${path} is not a pi session (or cannot be read)\n`);
      ctx.deps.stderr("hint: nothing was deleted; pass only session files\n");
      return 3;
    }
    if (!opts.yes && !(await confirmed(ctx, paths, permanent))) {
      ctx.note("Nothing deleted");
      return 1;
    }
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
    if (ctx.json) ctx.outJson(results);
    return exitCode;
  },
};
