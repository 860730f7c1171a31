/**
 * `delete`: moves sessions to the trash (pi's rule: the `trash` program when present),
 * or unlinks them with `--permanent`. Checks every file is a session before touching any.
 * @module
 */
import { readHeader } from "../../session/read-header.ts";
import type { CommandSpec } from "../command.ts";
import type { CliContext } from "../context.ts";
import { confirmDelete, deleteSessions } from "../delete-sessions.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";

async function resolveAll(ctx: CliContext, refs: string[]): Promise<string[]> {
  const paths: string[] = [];
  for (const ref of refs) {
    const path = await resolveSessionRef(ctx, ref);
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
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
    if (!opts.yes && !(await confirmDelete(ctx, paths, permanent))) {
      ctx.note("Nothing deleted");
      return 1;
    }
    const { results, exitCode } = await deleteSessions(ctx, paths, permanent);
    if (ctx.json) ctx.outJson(results);
    return exitCode;
  },
};
