/**
 * `show`: the transcript of one branch, root to leaf, as text for people, Markdown to
 * share, or the stored entries as JSON. Tool output is abbreviated and thinking folded. Never writes.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { sessionTranscript } from "../../query/transcript.ts";
import { entryBlock, transcriptLines } from "../../render/transcript.ts";
import { markdownTranscript } from "../../render/transcript-markdown.ts";
import { TREE_FILTERS, type TreeFilter } from "../../render/tree-rows.ts";

/** `pi-session show <ref> [--leaf E] [--filter F] [--format F] [--thinking] [--usage]`. */
export const showCommand: CommandSpec = {
  name: "show",
  summary: "Print the transcript of one branch, root to leaf (times in UTC)",
  args: ["<ref>"],
  paged: true,
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
    const filter = String(opts.filter ?? "all") as TreeFilter;
    const { value, tree, title } = await sessionTranscript(ctx, { ref, leaf: typeof opts.leaf === "string" ? opts.leaf : undefined, filter });
    const { path, leafId, entries } = value;
    const format = ctx.json ? "json" : String(opts.format ?? "text");
    if (format === "json") {
      ctx.outJson(value);
      return 0;
    }
    const options = { thinking: Boolean(opts.thinking), usage: Boolean(opts.usage), labels: tree.labels };
    const blocks = entries.map((entry) => entryBlock(entry, options)).filter((block) => block !== null);
    if (format === "markdown") {
      ctx.deps.stdout(markdownTranscript(title, path, leafId, blocks));
      return 0;
    }
    // Blocks are separated by a blank line; runs of one-line settings entries stay together.
    const lines = transcriptLines(blocks, ctx.color);
    for (const line of lines) ctx.out(line);
    return 0;
  },
};
