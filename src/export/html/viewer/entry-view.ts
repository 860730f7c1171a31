/**
 * One conversation item as DOM: a message with its markdown, thinking, tool calls (with
 * their results folded in) and usage, or a one-line note for settings entries. Bodies of
 * closed blocks are built only when opened, so long tool output costs nothing until read.
 * @module
 */
import { append, h, lazyDetails, trustedMarkup } from "./dom.ts";
import { contentText, isObject, type Json, messageOf, rowText, str, toolCallLine, type ToolCallInfo, type ViewerEntry } from "./entry-text.ts";
import { compactNumber, formatClock, groupDigits, money } from "./format.ts";
import { highlightCode, IMAGE_TYPES, languageForPath, renderMarkdown } from "./markdown.ts";

/** Output longer than this many lines shows its head and a button for the rest. */
const OUTPUT_LINES = 400;

export interface UsageSum {
  tokens: number;
  cost: number;
}

export interface ViewContext {
  toolCalls: ReadonlyMap<string, ToolCallInfo>;
  labels: ReadonlyMap<string, string>;
  /** The tool result on this branch for a call id, if any. */
  resultFor(callId: string): ViewerEntry | undefined;
  /** Usage of the turn a user message starts. */
  turnUsage(entryId: string): UsageSum | undefined;
  expandThinking: boolean;
  expandTools: boolean;
}

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function markdown(text: string, className = "md"): HTMLElement {
  const div = h("div", { class: className });
  div.appendChild(trustedMarkup(renderMarkdown(text)));
  return div;
}

/** A `<pre>` of plain or highlighted text, cut to its first lines with a button for the rest. */
function outputBlock(text: string, language?: string): HTMLElement {
  const lines = text.split("\n");
  const code = h("code", { class: "hljs" });
  const pre = h("pre", { class: "output" }, code);
  const show = (all: string) => {
    code.textContent = "";
    code.appendChild(language ? trustedMarkup(highlightCode(all, language)) : document.createTextNode(all));
  };
  if (lines.length <= OUTPUT_LINES) {
    show(text);
    return pre;
  }
  show(lines.slice(0, OUTPUT_LINES).join("\n"));
  const more = h("button", { class: "more", type: "button" }, `Show all ${groupDigits(lines.length)} lines`);
  more.addEventListener("click", () => {
    show(text);
    more.remove();
  });
  return h("div", {}, pre, more);
}

/** An `<img>` for an image block, or a note when its type or data is not a safe raster image. */
function imageBlock(block: Json): HTMLElement {
  const mime = str(block.mimeType).toLowerCase();
  const data = str(block.data);
  if (!IMAGE_TYPES.includes(mime) || !/^[A-Za-z0-9+/=\s]*$/.test(data)) {
    return h("p", { class: "note" }, `[image not shown: ${mime || "unknown type"}]`);
  }
  const img = h("img", { class: "image", attrs: { alt: "image from the session", loading: "lazy" } });
  img.src = `data:${mime};base64,${data.replace(/\s/g, "")}`;
  return img;
}

function contentBlocks(content: unknown): HTMLElement[] {
  if (typeof content === "string") return content.trim() ? [markdown(content)] : [];
  if (!Array.isArray(content)) return [];
  const out: HTMLElement[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string" && block.text.trim()) out.push(markdown(block.text));
    else if (block.type === "image") out.push(imageBlock(block));
  }
  return out;
}

function head(entry: ViewerEntry, who: string, ctx: ViewContext, extra: (Node | string)[] = []): HTMLElement {
  const label = ctx.labels.get(entry.id);
  return h(
    "header",
    { class: "entry-head" },
    h("span", { class: "who" }, who),
    ...extra,
    label !== undefined ? h("span", { class: "label", title: "label" }, label) : null,
    h("span", { class: "time", title: str(entry.timestamp) }, formatClock(entry.timestamp)),
    h("a", { class: "anchor", href: `#entry-${entry.id}`, title: `Link to entry ${entry.id}` }, "#"),
  );
}

function usageLine(usage: unknown): HTMLElement | null {
  if (!isObject(usage)) return null;
  const cost = isObject(usage.cost) ? num(usage.cost.total) : 0;
  const parts = [`↑${compactNumber(num(usage.input))}`, `↓${compactNumber(num(usage.output))}`];
  if (num(usage.cacheRead)) parts.push(`R${compactNumber(num(usage.cacheRead))}`);
  if (num(usage.cacheWrite)) parts.push(`W${compactNumber(num(usage.cacheWrite))}`);
  const full = `input ${groupDigits(num(usage.input))}, output ${groupDigits(num(usage.output))}, cache read ${groupDigits(num(usage.cacheRead))}, cache write ${groupDigits(num(usage.cacheWrite))}`;
  return h("div", { class: "usage", title: full }, `${parts.join(" ")} · ${money(cost)}`);
}

function editArgs(args: Json): string {
  const edits = Array.isArray(args.edits) ? args.edits.filter(isObject) : [args];
  const lines: string[] = [];
  for (const edit of edits) {
    const oldText = str(edit.oldText ?? edit.old_string);
    const newText = str(edit.newText ?? edit.new_string);
    if (lines.length > 0) lines.push("");
    for (const line of oldText.split("\n")) lines.push(`- ${line}`);
    for (const line of newText.split("\n")) lines.push(`+ ${line}`);
  }
  return lines.join("\n");
}

function argsView(call: ToolCallInfo): HTMLElement | null {
  const { name, args } = call;
  const path = str(args.path ?? args.file_path);
  if (name === "bash") return outputBlock(`$ ${str(args.command)}`, "bash");
  if (name === "read" || name === "ls") return null;
  if (name === "write" && typeof args.content === "string") return outputBlock(args.content, languageForPath(path));
  if (name === "edit") return outputBlock(editArgs(args), "diff");
  return outputBlock(JSON.stringify(args, null, 2) ?? "", "json");
}

function resultView(result: ViewerEntry, call: ToolCallInfo | undefined): HTMLElement[] {
  const message = messageOf(result)!;
  const text = contentText(message.content);
  const language = call?.name === "read" ? languageForPath(str(call.args.path)) : undefined;
  const out: HTMLElement[] = [];
  if (text) out.push(outputBlock(text, language));
  if (Array.isArray(message.content)) {
    for (const block of message.content) if (isObject(block) && block.type === "image") out.push(imageBlock(block));
  }
  if (out.length === 0) out.push(h("p", { class: "note" }, "(no output)"));
  const usage = usageLine(message.usage);
  if (usage) out.push(usage);
  return out;
}

/** A tool call with its result folded in; its element carries the result's entry id as anchor. */
function toolBlock(call: ToolCallInfo, callId: string, ctx: ViewContext): HTMLElement {
  const result = ctx.resultFor(callId);
  const message = result ? messageOf(result) : undefined;
  const failed = message?.isError === true;
  const status = !result ? h("span", { class: "status pending" }, "no result") : h("span", { class: `status ${failed ? "error" : "ok"}` }, failed ? "error" : "ok");
  const [name, ...rest] = toolCallLine(call.name, call.args).split(" ");
  const details = lazyDetails(
    `tool${failed ? " failed" : ""}`,
    [h("span", { class: "tool-name" }, name), " ", h("span", { class: "tool-args" }, rest.join(" ")), status],
    () => [argsView(call), ...(result ? resultView(result, call) : [])],
    ctx.expandTools,
  );
  if (result) {
    details.id = `entry-${result.id}`;
    details.dataset.id = result.id;
  }
  return details;
}

function thinkingBlock(text: string, ctx: ViewContext): HTMLElement {
  return lazyDetails("thinking", [`Thinking · ${groupDigits(text.length)} chars`], () => [markdown(text, "md thinking-text")], ctx.expandThinking);
}

function assistantView(entry: ViewerEntry, message: Json, ctx: ViewContext): HTMLElement {
  const model = [str(message.provider), str(message.responseModel ?? message.model)].filter(Boolean).join("/");
  const body = h("div", { class: "entry-body" });
  for (const block of Array.isArray(message.content) ? message.content : []) {
    if (!isObject(block)) continue;
    if (block.type === "thinking" && typeof block.thinking === "string" && block.thinking.trim()) body.appendChild(thinkingBlock(block.thinking, ctx));
    else if (block.type === "text" && typeof block.text === "string" && block.text.trim()) body.appendChild(markdown(block.text));
    else if (block.type === "toolCall") {
      body.appendChild(toolBlock({ name: str(block.name), args: isObject(block.arguments) ? block.arguments : {} }, str(block.id), ctx));
    }
  }
  if (message.stopReason === "aborted") body.appendChild(h("p", { class: "note" }, "(aborted)"));
  if (message.stopReason === "length") body.appendChild(h("p", { class: "note" }, "(stopped at the output limit)"));
  if (message.errorMessage) body.appendChild(h("p", { class: "error-text" }, `Error: ${str(message.errorMessage)}`));
  const usage = usageLine(message.usage);
  return h("article", { class: "entry assistant" }, head(entry, "Assistant", ctx, model ? [h("span", { class: "model" }, model)] : []), body, usage);
}

function userView(entry: ViewerEntry, message: Json, ctx: ViewContext): HTMLElement {
  const turn = ctx.turnUsage(entry.id);
  const extra = turn && (turn.tokens > 0 || turn.cost > 0)
    ? [h("span", { class: "turn", title: `this turn: ${groupDigits(turn.tokens)} tokens, ${money(turn.cost)}` }, `turn ${compactNumber(turn.tokens)} tok · ${money(turn.cost)}`)]
    : [];
  return h("article", { class: "entry user" }, head(entry, "User", ctx, extra), h("div", { class: "entry-body" }, ...contentBlocks(message.content)));
}

function messageView(entry: ViewerEntry, message: Json, ctx: ViewContext): HTMLElement {
  const role = str(message.role);
  switch (role) {
    case "user":
      return userView(entry, message, ctx);
    case "assistant":
      return assistantView(entry, message, ctx);
    case "toolResult": {
      const call = ctx.toolCalls.get(str(message.toolCallId));
      const title = call ? toolCallLine(call.name, call.args) : str(message.toolName) || "tool";
      return h("article", { class: `entry tool-result${message.isError ? " failed" : ""}` }, head(entry, "Tool result", ctx, [h("span", { class: "model" }, title)]), h("div", { class: "entry-body" }, ...resultView(entry, call)));
    }
    case "bashExecution": {
      const body = h("div", { class: "entry-body" }, outputBlock(`$ ${str(message.command)}`, "bash"));
      if (str(message.output)) body.appendChild(outputBlock(str(message.output)));
      if (typeof message.exitCode === "number" && message.exitCode !== 0) body.appendChild(h("p", { class: "error-text" }, `exit code ${message.exitCode}`));
      if (message.cancelled) body.appendChild(h("p", { class: "note" }, "(cancelled)"));
      if (message.excludeFromContext) body.appendChild(h("p", { class: "note" }, "(not sent to the model)"));
      return h("article", { class: "entry bash" }, head(entry, "Shell", ctx), body);
    }
    case "system":
      return h("article", { class: "entry system" }, head(entry, "System", ctx), lazyDetails("system-prompt", ["System prompt"], () => [outputBlock(contentText(message.content))]));
    case "branchSummary":
    case "compactionSummary":
      return summaryView(entry, role === "branchSummary" ? "Branch summary" : "Compaction summary", str(message.summary), ctx);
    case "custom":
      return customView(entry, str(message.customType), message.content, message.display !== false, ctx);
    default:
      return h("article", { class: "entry other" }, head(entry, role || "message", ctx), h("div", { class: "entry-body" }, ...contentBlocks(message.content)));
  }
}

function summaryView(entry: ViewerEntry, title: string, summary: string, ctx: ViewContext, note?: string): HTMLElement {
  return h(
    "article",
    { class: "entry summary" },
    head(entry, title, ctx, note ? [h("span", { class: "model" }, note)] : []),
    lazyDetails("summary-body", ["Summary"], () => [markdown(summary)], true),
  );
}

function customView(entry: ViewerEntry, customType: string, content: unknown, display: boolean, ctx: ViewContext): HTMLElement {
  return h("article", { class: `entry custom${display ? "" : " hidden-message"}` }, head(entry, customType || "custom", ctx), h("div", { class: "entry-body" }, ...contentBlocks(content)));
}

/**
 * The element of one conversation item; its id is `entry-<id>` for deep links.
 */
export function entryView(entry: ViewerEntry, ctx: ViewContext): HTMLElement {
  const message = messageOf(entry);
  let el: HTMLElement;
  if (message) el = messageView(entry, message, ctx);
  else if (entry.type === "compaction") {
    el = summaryView(entry, "Compaction", str(entry.summary), ctx, `${groupDigits(num(entry.tokensBefore))} tokens before`);
  } else if (entry.type === "branch_summary") el = summaryView(entry, "Branch summary", str(entry.summary), ctx);
  else if (entry.type === "custom_message") el = customView(entry, str(entry.customType), entry.content, entry.display !== false, ctx);
  else {
    const label = ctx.labels.get(entry.id);
    el = h(
      "div",
      { class: "entry meta-line" },
      h("span", { class: "meta-text" }, rowText(entry, ctx.toolCalls)),
      label !== undefined ? h("span", { class: "label" }, label) : null,
      h("span", { class: "time" }, formatClock(entry.timestamp)),
      h("a", { class: "anchor", href: `#entry-${entry.id}`, title: `Link to entry ${entry.id}` }, "#"),
    );
    if (entry.type === "usage") append(el, usageLine(entry.usage));
  }
  el.id = `entry-${entry.id}`;
  el.dataset.id = entry.id;
  return el;
}
