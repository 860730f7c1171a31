/**
 * `clone`: a new session holding the active branch (pi's /clone), or the branch that ends
 * at `--leaf`. With the global `--cwd DIR` it lands in DIR's sessions.
 * @module
 */
import { branchOut } from "../branch-out.ts";
import type { CommandSpec } from "../command.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";

/** `pi-session clone <ref> [--leaf <entry>]` */
export const cloneCommand: CommandSpec = {
  name: "clone",
  summary: "Start a new session holding the active branch (or the one ending at --leaf); prints its path",
  args: ["<ref>"],
  options: [{ flags: "--leaf <entry>", description: "clone the branch ending here instead: id, unique prefix or label:NAME" }],
  examples: ["pi-session clone @", "pi-session clone 01a2b3 --leaf label:good-state", "pi-session clone @ --cwd ~/experiment --json"],
  async run(ctx, [ref], opts) {
    const leaf = typeof opts.leaf === "string" ? opts.leaf : undefined;
    const path = await resolveSessionRef(ctx, ref);
    return branchOut(ctx, path, (tree, manager) => {
      if (leaf !== undefined) return { leafId: resolveEntryRef(tree, leaf, path) };
      const leafId = manager.getLeafId();
      return leafId === null ? { leafId: null, why: "Nothing to clone yet: the session has no entries" } : { leafId };
    });
  },
};
