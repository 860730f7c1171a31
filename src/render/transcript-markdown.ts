/**
 * Transcript blocks as Markdown: a heading per entry, tool calls and results in fenced
 * code blocks named after the tool, thinking in `<details>`, summaries as block quotes.
 * @module
 */
import { oneLine, printable } from "./control-chars.ts";
import { escapeMarkdownHtml } from "./markdown-escape.ts";
import { abbreviate, type Block } from "./transcript.ts";

/** The longest run of backticks in `text` (a loop: a spread of every run overflows on huge texts). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/** A fence longer than any backtick run inside `text`, so the block cannot be closed early. */
export function fenced(text: string, info = ""): string[] {
  const longest = longestBacktickRun(text);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [fence + info, text, fence];
}

/** Inline code that survives backticks in `text`. */
export function inlineCode(text: string): string {
  const longest = longestBacktickRun(text);
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Argument values shortened so a `write` of a whole file does not flood the transcript. */
function shortArgs(args: Record<string, unknown>): string {
  const clipped = JSON.stringify(args, (_key, value) => (typeof value === "string" && value.length > 200 ? value.slice(0, 199) + "…" : value), 2);
  // JSON escapes C0 controls but not C1 ones nor bidi controls.
  const { lines, more } = abbreviate(printable(clipped ?? "{}"), 20);
  return lines.join("\n") + (more > 0 ? `\n… (${more} more lines)` : "");
}

/** `tool result: read (error)` → `read`, the name used to label the fenced block. */
function toolName(title: string): string {
  return title.replace(/^tool result: /, "").replace(/ \(error\)$/, "");
}

/**
 * The Markdown lines of one block, followed by a blank line.
 *
 * @example
 * ```ts
 * markdownBlock({ entryId: "a1", time: "2024-01-01 14:00", title: "user", parts: [{ kind: "text", text: "hi" }] });
 * // ["## User · 2024-01-01 14:00 · `a1`", "", "hi", ""]
 * ```
 */
export function markdownBlock(block: Block): string[] {
  const meta = [block.time, inlineCode(block.entryId)].filter(Boolean).join(" · ");
  const label = block.label !== undefined ? ` · label ${inlineCode(oneLine(block.label))}` : "";
  if (block.line !== undefined) return [`*${inlineCode(block.line)} · ${meta}${label}*`, ""];
  const out = [`## ${oneLine(capitalize(block.title))} · ${meta}${label}`, ""];
  for (const part of block.parts) {
    switch (part.kind) {
      case "text":
        out.push(escapeMarkdownHtml(part.text), "");
        break;
      case "thinking":
        out.push("<details>", "<summary>Thinking</summary>", "", escapeMarkdownHtml(part.text), "", "</details>", "");
        break;
      case "call":
        if (part.name === "$") out.push(...fenced(String(part.args.command ?? ""), "sh"), "");
        else out.push(`**→ ${inlineCode(part.name)}**`, "", ...fenced(shortArgs(part.args), "json"), "");
        break;
      case "output": {
        const { lines, more } = abbreviate(part.text);
        const body = lines.join("\n") + (more > 0 ? `\n… (${more} more line${more === 1 ? "" : "s"})` : "");
        out.push(...fenced(body, block.title === "bash" || block.title === "system" ? "text" : toolName(block.title).replace(/\s/g, "-")), "");
        break;
      }
      case "quote":
        for (const line of escapeMarkdownHtml(part.text).split("\n")) out.push(line ? `> ${line}` : ">");
        out.push("");
        break;
      case "note":
        out.push(`*${part.text.replace(/([*_`\\[\]])/g, "\\$1")}*`, "");
        break;
      case "usage":
        out.push(`*Usage: ${part.text}*`, "");
        break;
    }
  }
  return out;
}

/** The lines before the blocks: a title, the file and the leaf. */
export function markdownTranscriptHead(title: string, path: string, leafId: string | null): string[] {
  return [`# ${oneLine(title)}`, "", `- File: ${inlineCode(oneLine(path))}`, `- Leaf: ${leafId === null ? "(none)" : inlineCode(oneLine(leafId))}`, ""];
}

/** The whole transcript: a title, the file and leaf, then every block. */
export function markdownTranscript(title: string, path: string, leafId: string | null, blocks: readonly Block[]): string {
  const lines = markdownTranscriptHead(title, path, leafId);
  for (const block of blocks) for (const line of markdownBlock(block)) lines.push(line);
  return lines.join("\n").replace(/\n+$/, "\n");
}
