/**
 * `fork`: a new session holding the path from the root to an entry (pi's /fork and
 * `createBranchedSession`). With the global `--cwd DIR` it lands in DIR's sessions.
 * @module
 */
import { branchOut } from "../branch-out.ts";
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";
import { selectAndFork } from "../interactive/fork-select/select-and-fork.ts";
import { resolveEntryRef } from "../resolve/entry-ref.ts";
import { resolveSessionRef } from "../resolve/session-ref.ts";

/** `pi-session fork <ref> --at <entry>` (global `--cwd DIR`: into DIR's sessions) */
export const forkCommand: CommandSpec = {
  name: "fork",
  summary: "Start a new session from the root to an entry; prints its path (--cwd DIR puts it in DIR's sessions)",
  args: ["<ref>"],
  options: [{ flags: "--at <entry>", description: "the entry the new session ends at: id, unique prefix or label:NAME (left out on a terminal: pick a user message)" }],
  examples: [
    "pi-session fork @ --at 5f6e7d8c",
    "pi-session fork 01a2b3 --at label:before-refactor --cwd ~/other-project",
    'pi --session "$(pi-session fork @ --at 5f6e)"',
  ],
  async run(ctx, [ref], opts) {
    if (typeof opts.at !== "string") {
      // On a terminal, choose a user message (pi's /fork); the fork ends just before it.
      const terminal = ctx.deps.terminal;
      if (terminal) return selectAndFork(ctx, terminal, await resolveSessionRef(ctx, ref));
      throw new CliError("needs-entry", "Choose an entry with --at (interactive selection needs a terminal)", "List entries with `pi-session tree <ref>`, then pass --at ID");
    }
    const at = opts.at;
    const path = await resolveSessionRef(ctx, ref);
    return branchOut(ctx, path, (tree) => ({ leafId: resolveEntryRef(tree, at, path) }));
  },
};
