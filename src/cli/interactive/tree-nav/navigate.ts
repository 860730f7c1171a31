/**
 * `tree <ref> -i`: runs the navigator on a session, writes labels as they are set, and
 * after Enter's menu does the chosen action: print the context or the entry id, or fork
 * or clone a new session (the only other writes), printing what it wrote.
 * @module
 */
import { branchOut } from "../../branch-out.ts";
import { contextCommand } from "../../commands/context.ts";
import { CliContext } from "../../context.ts";
import { describeError } from "../../errors.ts";
import { loadSessionAt } from "../../../query/load.ts";
import type { TreeFilter } from "../../../render/tree-rows.ts";
import { openForAppend, writing } from "../../session-write.ts";
import { forkBefore } from "../fork-select/fork-before.ts";
import type { Apply, Terminal } from "../prompt.ts";
import { CANCELLED } from "../require-terminal.ts";
import { renderTreeNav } from "./render.ts";
import { effectFailed, initialTreeNav, reduceTreeNav, type TreeNavEffect, type TreeNavState, treeReloaded } from "./state.ts";

/** Lines besides the rows: title, two hints, search, rule, footer, one spare. */
const CHROME = 7;

/** pi pages by half the terminal (at least 5); the frame must still fit on the screen. */
function pageSizeFor(rows: number): number {
  return Math.max(1, Math.min(Math.max(5, Math.floor(rows / 2)), rows - CHROME));
}

async function writeLabel(ctx: CliContext, path: string, effect: TreeNavEffect, apply: Apply<TreeNavState>): Promise<void> {
  try {
    const manager = await openForAppend(ctx, path);
    await writing(path, () => manager.appendLabelChange(effect.targetId, effect.label));
    const { tree } = await loadSessionAt(ctx, path);
    const text = effect.label === undefined ? `Label cleared on ${effect.targetId}` : `Labelled ${effect.targetId} "${effect.label}"`;
    apply((state) => treeReloaded(state, tree, text));
  } catch (error) {
    const text = describeError(error).lines[0].replace(/^pi-session: /, "");
    apply((state) => effectFailed(state, `Failed to label: ${text}`));
  }
}

/**
 * Navigates the session at `path`; returns the exit code (130 when closed with Escape).
 *
 * @example
 * ```ts
 * // return await navigateTree(ctx, terminal, path, "default");
 * ```
 */
export async function navigateTree(ctx: CliContext, terminal: Terminal, path: string, filter: TreeFilter): Promise<number> {
  const { tree } = await loadSessionAt(ctx, path);
  // Notes (such as "rewritten as v3 first") would land in the middle of the screen.
  const quiet = new CliContext(ctx.deps, { ...ctx.options, quiet: true });
  const options = { now: ctx.deps.now(), colors: ctx.errColor };
  const exit = await terminal.run<TreeNavState, TreeNavEffect, { action: string; entryId: string }>({
    initial: initialTreeNav({ tree, filter, pageSize: pageSizeFor(terminal.size().rows), home: ctx.deps.storage.home }),
    reduce: reduceTreeNav,
    resize: (state, size) => ({ ...state, pageSize: pageSizeFor(size.rows) }),
    render: (state, size) => renderTreeNav(state, size, options),
    perform: (effect, apply) => writeLabel(quiet, path, effect, apply),
  });
  if (exit.kind === "cancel") return CANCELLED;
  const { action, entryId } = exit.value;
  switch (action) {
    case "context":
      return contextCommand.run(ctx, [path], { leaf: entryId, format: "text" });
    case "fork":
      return forkBefore(ctx, path, entryId);
    case "clone":
      return branchOut(ctx, path, () => ({ leafId: entryId }));
    default:
      ctx.out(entryId);
      return 0;
  }
}
