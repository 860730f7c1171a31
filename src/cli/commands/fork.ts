/**
 * `fork`: a new session holding the path from the root to an entry (pi's `createBranchedSession`).
 * `--at E` keeps E as the last entry; `--before E` ends just before E and, for a user message,
 * prints its text to send again (pi's /fork, and what the interactive selector does). With the
 * global `--cwd DIR` the new session lands in DIR's sessions.
 * @module
 */
import { branchOut } from "../branch-out.ts";
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";
import { forkBefore } from "../interactive/fork-select/fork-before.ts";
import { selectAndFork } from "../interactive/fork-select/select-and-fork.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";

/** `pi-session fork <ref> --at <entry> | --before <entry>` (global `--cwd DIR`: into DIR's sessions) */
export const forkCommand: CommandSpec = {
  name: "fork",
  summary: "Start a new session from the root to an entry; prints its path (--cwd DIR puts it in DIR's sessions)",
  args: ["<ref>"],
  options: [
    { flags: "--at <entry>", description: "end the new session at this entry, keeping it: id, unique prefix or label:NAME" },
    { flags: "--before <entry>", description: "end the new session just before this entry (pi's /fork): a user message's text is printed on stderr, to send again" },
  ],
  notes: [
    "--at keeps the entry; --before leaves it out, as pi's /fork does with a user message.",
    "With neither, on a terminal: choose a user message, and the fork ends just before it (as --before).",
  ],
  examples: [
    "pi-session fork @ --at 5f6e7d8c",
    "pi-session fork @ --before 5f6e7d8c   # ends at its parent; prints the message to send again",
    "pi-session fork 01a2b3 --at label:before-refactor --cwd ~/other-project",
    'pi --session "$(pi-session fork @ --at 5f6e)"',
  ],
  async run(ctx, [ref], opts) {
    if (typeof opts.at === "string" && typeof opts.before === "string") {
      throw new CliError("bad-usage", "Pass --at or --before, not both", "--at E keeps E as the last entry; --before E ends just before it");
    }
    if (typeof opts.before === "string") {
      const before = opts.before;
      const path = await resolveSessionRef(ctx, ref);
      return forkBefore(ctx, path, (tree) => resolveEntryRef(tree, before, path), { strict: true });
    }
    if (typeof opts.at !== "string") {
      // On a terminal, choose a user message (pi's /fork); the fork ends just before it, as --before.
      const terminal = ctx.deps.terminal;
      if (terminal) return selectAndFork(ctx, terminal, await resolveSessionRef(ctx, ref));
      throw new CliError(
        "needs-entry",
        "Choose an entry with --at or --before (interactive selection needs a terminal)",
        "List entries with `pi-session tree <ref>`, then pass --at ID (keeps it) or --before ID (ends just before it)",
      );
    }
    const at = opts.at;
    const path = await resolveSessionRef(ctx, ref);
    return branchOut(ctx, path, (tree) => ({ leafId: resolveEntryRef(tree, at, path) }));
  },
};
