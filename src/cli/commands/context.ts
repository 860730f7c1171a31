/**
 * `context`: the model context pi would build at an entry: `{messages, thinkingLevel,
 * model}` as JSON (the default), the provider-facing `convertToLlm` array, or plain text.
 * @module
 */
import { CONTEXT_FORMATS, type ContextFormat, sessionContext } from "../../query/context.ts";
import { contextText } from "../../render/message-text.ts";
import { printable } from "../../render/control-chars.ts";
import type { CommandSpec } from "../command.ts";

export const contextCommand: CommandSpec = {
  name: "context",
  summary: "Print the model context pi would build at an entry (default: the last entry)",
  args: ["<ref>"],
  paged: true,
  options: [
    { flags: "--leaf <entry>", description: "entry id, unique prefix or label:NAME (default: the last entry)" },
    { flags: "--format <format>", description: "json: {messages, thinkingLevel, model}; llm: convertToLlm output; text", choices: [...CONTEXT_FORMATS, "text"], default: "json" },
  ],
  examples: ["pi-session context @", "pi-session context 01a2b3 --leaf label:before-refactor --format llm", "pi-session context session.jsonl --format text | less"],
  async run(ctx, [ref], opts) {
    const text = opts.format === "text";
    const format = (text ? "json" : String(opts.format ?? "json")) as ContextFormat;
    const { value, context } = await sessionContext(ctx, { ref, leaf: typeof opts.leaf === "string" ? opts.leaf : undefined, format });
    if (text) ctx.deps.stdout(printable(contextText(context.messages)));
    else ctx.outRawJson(value);
    return 0;
  },
};
