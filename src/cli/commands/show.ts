/**
 * `show`: the transcript of one branch, root to leaf, as text for people, Markdown to
 * share, or the stored entries as JSON. Tool output is abbreviated and thinking folded. Never writes.
 * The branch is streamed (a few megabytes of it parsed at a time), so a session of any size shows
 * in bounded memory.
 * @module
 */
import type { CommandSpec } from "../command.ts";
import { versioned } from "../../query/json-version.ts";
import { streamTranscript } from "../../query/transcript-stream.ts";
import { JoinedLines } from "../../render/joined-lines.ts";
import { PrettyJsonArray } from "../../render/pretty-json-stream.ts";
import { entryBlock, TranscriptText } from "../../render/transcript.ts";
import { markdownBlock, markdownTranscriptHead } from "../../render/transcript-markdown.ts";
import { TREE_FILTERS, type TreeFilter } from "../../render/tree-rows.ts";

/** Text gathered before one write to stdout. */
const PIECE = 16 * 1024;

/** Joins output into pieces of about `PIECE` characters, so a long transcript is not a write per line. */
function pieceWriter(write: (text: string) => void): { add(text: string): void; flush(): void } {
  let parts: string[] = [];
  let size = 0;
  const flush = () => {
    if (parts.length > 0) write(parts.join(""));
    parts = [];
    size = 0;
  };
  return {
    add(text) {
      if (text === "") return;
      parts.push(text);
      size += text.length;
      if (size >= PIECE) flush();
    },
    flush,
  };
}

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
    const branch = await streamTranscript(ctx, { ref, leaf: typeof opts.leaf === "string" ? opts.leaf : undefined, filter });
    const { path, leafId, labels, title } = branch;
    const format = ctx.json ? "json" : String(opts.format ?? "text");
    const out = pieceWriter((text) => ctx.deps.stdout(text));
    if (format === "json") {
      const json = new PrettyJsonArray(versioned({ path, leafId, entries: [] }) as Record<string, unknown>, "entries");
      for await (const entry of branch.entries) out.add(json.item(entry));
      out.add(json.end() + "\n");
    } else {
      const options = { thinking: Boolean(opts.thinking), usage: Boolean(opts.usage), labels };
      if (format === "markdown") {
        const joined = new JoinedLines();
        out.add(joined.add(markdownTranscriptHead(title, path, leafId)));
        for await (const entry of branch.entries) {
          const block = entryBlock(entry, options);
          if (block) out.add(joined.add(markdownBlock(block)));
        }
        out.add(joined.end());
      } else {
        // Blocks are separated by a blank line; runs of one-line settings entries stay together.
        const text = new TranscriptText(ctx.color);
        for await (const entry of branch.entries) {
          const block = entryBlock(entry, options);
          if (block) for (const line of text.lines(block)) out.add(line + "\n");
        }
      }
    }
    out.flush();
    branch.finish();
    return 0;
  },
};
