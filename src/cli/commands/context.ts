/**
 * `context`: the model context pi would build at an entry: `{messages, thinkingLevel,
 * model}` as JSON (the default), the provider-facing `convertToLlm` array, or plain text.
 * @module
 */
import type { AgentMessage } from "../../core/format/types.ts";
import { convertToLlm } from "../../core/context/convert-to-llm.ts";
import { buildSessionContext } from "../../core/context/session-projection.ts";
import { readContextFromFile } from "../../session/read-context.ts";
import type { CommandSpec } from "../command.ts";
import { loadSessionAt } from "../../query/load.ts";
import { reportSkipped } from "../../query/skipped-note.ts";
import { resolveEntryRef } from "../../query/resolve/entry-ref.ts";
import { resolveSessionRef } from "../../query/resolve/session-ref.ts";
import { messageText } from "../../render/message-text.ts";
import { printable } from "../../render/control-chars.ts";

function textOf(message: AgentMessage): string {
  return `--- ${message.role} ---\n${messageText(message)}\n`;
}

export const contextCommand: CommandSpec = {
  name: "context",
  summary: "Print the model context pi would build at an entry (default: the last entry)",
  args: ["<ref>"],
  options: [
    { flags: "--leaf <entry>", description: "entry id, unique prefix or label:NAME (default: the last entry)" },
    { flags: "--format <format>", description: "json: {messages, thinkingLevel, model}; llm: convertToLlm output; text", choices: ["json", "llm", "text"], default: "json" },
  ],
  examples: ["pi-session context @", "pi-session context 01a2b3 --leaf label:before-refactor --format llm", "pi-session context session.jsonl --format text | less"],
  async run(ctx, [ref], opts) {
    const path = await resolveSessionRef(ctx, ref);
    let context;
    if (typeof opts.leaf === "string") {
      const { file, tree } = await loadSessionAt(ctx, path);
      reportSkipped(ctx, path, file.issues);
      context = buildSessionContext(file.entries, resolveEntryRef(tree, opts.leaf, path), tree.byId);
    } else {
      // The fast path parses only what the context at the default leaf needs (and checks every line).
      const read = await readContextFromFile(ctx.fs, path);
      reportSkipped(ctx, path, read.issues);
      context = read.context;
    }
    if (opts.format === "llm") ctx.outRawJson(convertToLlm(context.messages));
    else if (opts.format === "text") ctx.deps.stdout(printable(context.messages.map(textOf).join("\n")));
    else ctx.outRawJson(context);
    return 0;
  },
};
