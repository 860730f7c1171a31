/**
 * `__complete-sessions [prefix]`: the session ids completion scripts offer, one per line,
 * this directory's newest first, then every other project's. Hidden from help.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { completionCandidates, localCandidates } from "../../query/resolve/session-ref.ts";

/** `pi-session __complete-sessions [prefix]` (hidden) */
export const completeSessionsCommand: CommandSpec = {
  name: "__complete-sessions",
  summary: "Print session ids for shell completion (used by the completion scripts)",
  args: ["[prefix]"],
  examples: ["pi-session __complete-sessions 01a"],
  hidden: true,
  async run(ctx, [prefix = ""]) {
    const seen = new Set<string>();
    for (const group of [await localCandidates(ctx), await completionCandidates(ctx, prefix)]) {
      // Ties (files written in the same millisecond) by path, newest name first: the same order
      // whichever way the candidates came (the catalog's index of ids, or every header read).
      group.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? 1 : a.path > b.path ? -1 : 0));
      for (const { header } of group) {
        if (!header.id.startsWith(prefix) || seen.has(header.id)) continue;
        seen.add(header.id);
        ctx.out(header.id);
      }
    }
    return 0;
  },
};
