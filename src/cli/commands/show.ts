/**
 * `show`: the transcript of one branch, root to leaf, as text for people, Markdown to
 * share, or the stored entries as JSON. Tool output is abbreviated and thinking folded. Never writes.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { loadSession } from "../../query/load.ts";
import { reportSkipped } from "../../query/skipped-note.ts";
import { entryBlock, renderTextBlock } from "../../render/transcript.ts";
import { markdownTranscript } from "../../render/transcript-markdown.ts";
import { passesFilter, TREE_FILTERS, type TreeFilter } from "../../render/tree-rows.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";

/** `pi-session show <ref> [--leaf E] [--filter F] [--format F] [--thinking] [--usage]`. */
export const showCommand: CommandSpec = {
  name: "show",
  summary: "Print the transcript of one branch, root to leaf (times in UTC)",
  args: ["<ref>"],
  options: [
    { flags: "--leaf <entry>", description: "end the branch here: entry id, unique prefix or label:NAME (default: the last entry)" },
    {
      flags: "--filter <mode>",
      description: "which entries to show, as in `tree`; all shows settings entries as one dim line each",
      choices: [...TREE_FILTERS],
      default: "all",
    },
    { flags: "--format <format>", description: "text, markdown, or json: {path, leafId, entries} as stored", choices: ["text", "markdown", "json"], default: "text" },
    { flags: "--thinking", description: "show thinking in full instead of [thinking: N chars]" },
    { flags: "--usage", description: "add tokens and cost to each assistant turn, and show usage entries" },
  ],
  examples: ["pi-session show @", "pi-session show 01a2b3c4 --leaf label:before-refactor --thinking", "pi-session show session.jsonl --format markdown > transcript.md"],
  async run(ctx, [ref], opts) {
    const { path, file, tree } = await loadSession(ctx, ref);
    reportSkipped(ctx, path, file.issues);
    const leafId = typeof opts.leaf === "string" ? resolveEntryRef(tree, opts.leaf, path) : tree.leafId;
    const walk = tree.walk(leafId);
    if (walk.stop) {
      const why = walk.stop.kind === "cycle" ? "leads back into a parent cycle" : "is not in the file";
      ctx.notice(`the branch starts at "${walk.stop.entryId}": its parent "${walk.stop.parentId}" ${why}`);
    }
    const filter = String(opts.filter ?? "all") as TreeFilter;
    const entries = walk.path.filter((entry) => passesFilter(entry, filter, tree.labels.has(entry.id)));
    const format = ctx.json ? "json" : String(opts.format ?? "text");
    if (format === "json") {
      ctx.outJson({ path, leafId, entries });
      return 0;
    }
    const options = { thinking: Boolean(opts.thinking), usage: Boolean(opts.usage), labels: tree.labels };
    const blocks = entries.map((entry) => entryBlock(entry, options)).filter((block) => block !== null);
    if (format === "markdown") {
      ctx.deps.stdout(markdownTranscript(`Session ${tree.sessionName ?? file.header!.id}`, path, leafId, blocks));
      return 0;
    }
    // Blocks are separated by a blank line; runs of one-line settings entries stay together.
    const lines: string[] = [];
    let previousWasLine = false;
    for (const block of blocks) {
      const isLine = block.line !== undefined;
      if (lines.length > 0 && !(isLine && previousWasLine)) lines.push("");
      lines.push(...renderTextBlock(block, ctx.color));
      previousWasLine = isLine;
    }
    for (const line of lines) ctx.out(line);
    return 0;
  },
};
