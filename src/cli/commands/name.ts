/**
 * `name`: shows a session's name, or appends a `session_info` entry that sets it (CR/LF runs
 * become one space, then it is trimmed, as pi 1.6 does) or, with `--clear`, clears it.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { oneLine } from "../../render/control-chars.ts";
import { CliError } from "../errors.ts";
import { LEAN_READ } from "../../core/read/lean-entry.ts";
import { loadSessionAt } from "../../query/load.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { sessionInfoEntry } from "../../session/entry-builders.ts";
import { appendToLean, openForAppend, openLeanForAppend, writing } from "../session-write.ts";

/** `pi-session name <ref> [NAME... | --clear]` */
export const nameCommand: CommandSpec = {
  name: "name",
  summary: "Show a session's name, or set it (--clear removes it)",
  args: ["<ref>", "[name...]"],
  options: [{ flags: "--clear", description: "remove the name (appends an empty session_info)" }],
  examples: ["pi-session name @", "pi-session name @ Fix the login redirect", "pi-session name 01a2b3 --clear"],
  async run(ctx, [ref, ...words], opts) {
    const clear = Boolean(opts.clear);
    if (clear && words.length > 0) throw new CliError("bad-usage", "Pass a name or --clear, not both", "Run `pi-session name <ref> --clear` to remove the name");
    const path = await resolveSessionRef(ctx, ref);
    if (!clear && words.length === 0) {
      const name = (await loadSessionAt(ctx, path, LEAN_READ)).tree.sessionName;
      if (ctx.json) ctx.outJson({ path, name: name ?? null });
      // Stored text: an escape in it (a clipboard write, a clear screen) never reaches the terminal.
      else if (name !== undefined) ctx.out(oneLine(name));
      if (name === undefined && !ctx.json) ctx.note(`${path} has no name`);
      return name === undefined ? 1 : 0;
    }
    const given = words.join(" ");
    const name = clear ? "" : given.replace(/[\r\n]+/g, " ").trim();
    if (!clear && name === "") throw new CliError("empty-name", "The name is empty after trimming", "Use --clear to remove a session's name");
    // A current-format file: only its ids and leaf are read (a 1 GB session stays small).
    const lean = await openLeanForAppend(ctx, path);
    const id = lean
      ? (await writing(path, () => appendToLean(ctx, lean, (base) => sessionInfoEntry(base, name)))).id
      : await writing(path, async () => await (await openForAppend(ctx, path)).appendSessionInfo(name));
    if (!clear && name !== given.trim()) ctx.note(`Line breaks in the name were replaced: "${oneLine(name)}"`);
    if (ctx.json) ctx.outJson({ path, id, type: "session_info", name });
    else ctx.out(`appended session_info ${id} to ${path}`);
    return 0;
  },
};
