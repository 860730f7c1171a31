/**
 * `tree`: the whole entry tree as pi's /tree draws it, printed: branch points indented,
 * the active path marked with `•`, labels in brackets, one line per entry cut to the terminal.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { GarbagePacer } from "../../io/garbage-pacer.ts";
import { oneLine } from "../../render/control-chars.ts";
import { navigateTree } from "../interactive/tree-nav/navigate.ts";
import { leanSessionTree } from "../../query/lean-tree.ts";
import { MIN_PREFIX, uniquePrefixes, uniquePrefixLengths } from "../../render/unique-prefix.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { capIndent } from "../../render/tree-indent.ts";
import { filterTag, renderTreeRow, TREE_FILTERS, type TreeFilter, type TreeRow } from "../../render/tree-rows.ts";
import { treeRowJsonText } from "../../query/tree.ts";

/**
 * Each id's shortest unique prefix among `all` (every entry id of the session, distinct; sorted
 * in place): from their lengths when all are strings (a 146k-id map of strings is 17 MB), else
 * from `uniquePrefixes`.
 */
function idPrefixes(all: string[]): (id: string) => string {
  // Ids no longer than the shortest prefix (pi's 8 hex digits) are their own prefixes: no sort.
  if (all.every((id) => typeof id === "string" && id.length <= MIN_PREFIX)) return (id) => id;
  if (!all.every((id) => typeof id === "string")) {
    const map = uniquePrefixes(all);
    return (id) => map.get(id)!;
  }
  const lengths = uniquePrefixLengths(all);
  return (id) => id.slice(0, lengths.get(id));
}

/** `pi-session tree <ref> [--filter F]`. */
export const treeCommand: CommandSpec = {
  name: "tree",
  summary: "Print a session's whole entry tree, active branch and labels marked (pi's /tree)",
  args: ["<ref>"],
  paged: true,
  options: [
    {
      flags: "--filter <mode>",
      description: "which entries to show; default hides settings entries (labels, model changes, …), no-tools also tool results",
      choices: [...TREE_FILTERS],
      default: "default",
    },
    { flags: "--no-ids", description: "leave out the entry ids column (ids are what --leaf, fork --at and label take)" },
    { flags: "-i, --interactive", description: "navigate the tree on the terminal (pi's /tree): fold, filter, search, label, fork" },
  ],
  examples: ["pi-session tree @", "pi-session tree 01a2b3c4 -i --filter user-only", "pi-session tree session.jsonl --filter all --json | jq '.rows[] | select(.active)'"],
  async run(ctx, [ref], opts) {
    const filter = String(opts.filter ?? "default") as TreeFilter;
    if (opts.interactive) {
      const terminal = ctx.deps.terminal;
      if (terminal) return navigateTree(ctx, terminal, await resolveSessionRef(ctx, ref), filter);
      ctx.note("tree -i needs a terminal (stdin and stderr); printing the tree instead");
    }
    // Lean: each entry's tree fields and row, not the entry (a 1 GB session stays small).
    const { leafId, rows, ids: all } = await leanSessionTree(ctx, { ref, filter });
    if (ctx.json) {
      // What `outJson(json())` prints, a row at a time (each row's text made directly).
      ctx.outJsonItems({ leafId, filter, rows: [] }, "rows", rows, treeRowJsonText);
      return 0;
    }
    // Entry ids first, dim and aligned: unique among all the session's entries, so each one
    // works as an <entry> (fork --at, label, --leaf) whatever the filter hid.
    const ids = opts.ids === false ? undefined : idPrefixes(all);
    // A reduce, not Math.max(...rows): a spread of one argument per row overflows on big trees.
    const idWidth = ids ? rows.reduce((widest, row) => Math.max(widest, ids(row.entryId).length), 0) : 0;
    // Lines go out in pieces of some kilobytes: a write per row is slow on 100k+ rows.
    let piece = "";
    // The lines' garbage is collected young as they go.
    const pacer = new GarbagePacer({ everyAmount: 4 * 1024 * 1024, amountYoung: true });
    for (const row of rows) {
      // Deep rows keep half the width for their text (outer levels give way to `…`).
      const width = ids ? ctx.width - idWidth - 2 : ctx.width;
      const prefix = capIndent(row.depthPrefix, width);
      // A copy of the row only when its indentation was cut (in a pipe it never is).
      const line = renderTreeRow(prefix === row.depthPrefix ? row : { ...row, depthPrefix: prefix }, width, ctx.color);
      piece += (ids ? `${ctx.color.dim(oneLine(ids(row.entryId)).padEnd(idWidth))}  ${line}` : line) + "\n";
      if (piece.length >= 16 * 1024) {
        ctx.deps.stdout(piece);
        pacer.add(piece.length);
        piece = "";
      }
    }
    if (piece) ctx.deps.stdout(piece);
    if (rows.length === 0) ctx.out(ctx.color.dim("No entries found"));
    ctx.out(ctx.color.dim(`(${rows.length} ${rows.length === 1 ? "entry" : "entries"})${filterTag(filter)}`));
    return 0;
  },
};
