/**
 * `resume`: opens a session in pi, like `codex resume`: the session given (or chosen in the
 * picker) is started with `pi --session <file>` in the session's own folder, on our terminal,
 * and pi's exit code is ours.
 * @module
 */
import { resolvePath } from "../../core/storage/paths.ts";
import { readHeader } from "../../session/read-header.ts";
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";
import { CANCELLED } from "../interactive/require-terminal.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { pickSession } from "./pick.ts";

/** `pi-session resume [<ref>] [--all] [--pi CMD]` */
export const resumeCommand: CommandSpec = {
  name: "resume",
  summary: "Open a session in pi (pi --session FILE in the session's folder); picks one when no ref is given",
  args: ["[ref]"],
  options: [
    { flags: "-a, --all", description: "pick among the sessions of every project" },
    { flags: "--pi <command>", description: "the pi program to run (default: pi, from PATH)", default: "pi" },
  ],
  examples: ["pi-session resume", "pi-session resume @", "pi-session resume 01a2b3 --pi ~/bin/pi-dev"],
  async run(ctx, [ref], opts) {
    const path = ref !== undefined
      ? await resolveSessionRef(ctx, ref)
      : (await pickSession(ctx, Boolean(opts.all), "resume without a session", "Pass the session: pi-session resume <ref> (see pi-session list)"))?.path;
    if (path === undefined) return CANCELLED;
    const header = await readHeader(ctx.fs, path);
    if (header === null) throw new CliError("not-a-session", `${path} is not a pi session (or cannot be read)`, "Run pi-session check on it for details", 3);
    const base = ctx.deps.storage.processCwd;
    const cwd = typeof header.cwd === "string" && header.cwd !== "" ? resolvePath(base, header.cwd) : undefined;
    if (cwd === undefined) throw new CliError("no-cwd", `${path} does not say which folder it was made in`, "Start pi yourself: pi --session <file>", 3);
    if (!(await ctx.fs.stat(cwd))?.isDirectory) {
      throw new CliError("cwd-missing", `The session's folder ${cwd} does not exist`, "If the project moved, move its sessions along (pi-session move), or start pi yourself: pi --session <file>", 1);
    }
    const pi = String(opts.pi);
    if (!ctx.deps.spawn) throw new CliError("cannot-spawn", "This runtime cannot start other programs", `Run it yourself: cd ${cwd} && ${pi} --session ${path}`);
    const result = await ctx.deps.spawn(pi, ["--session", path], { cwd });
    if ("notFound" in result) {
      const where = pi.includes("/") ? `${pi} does not exist` : `"${pi}" is not on PATH`;
      throw new CliError("pi-not-found", `Cannot start pi: ${where}`, "Install pi (npm install -g @earendil-works/pi-coding-agent), or pass --pi /path/to/pi");
    }
    return result.code;
  },
};
