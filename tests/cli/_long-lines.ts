/**
 * A session whose lines are long, for the lean reads that skim long lines (`tree`): tool results
 * of many kilobytes, and long strings in every field a tree row shows (user and assistant text,
 * tool call arguments, error messages, bash commands, custom messages, summaries, labels),
 * with blanks, control characters, escapes, accents, wide characters and surrogate pairs where
 * a cut could land. Main line last (the default leaf), a side branch and a compaction.
 * @module
 */
import { at, compaction, entry, label, modelChange, sessionInfo } from "../core/_builders.ts";
import type { SessionEntry } from "../../src/core/mod.ts";
import { jsonl } from "./_harness.ts";

/** `count` characters of text made of `piece` again and again. */
function long(piece: string, count: number): string {
  return piece.repeat(Math.ceil(count / piece.length)).slice(0, count);
}

/** Text whose first 200 characters matter: blanks, control characters and wide ones early on. */
const TRICKY = "  \t\n\u0007 héllo \"quoted\" \\ back 日本語 😀 " + long("wörds and more words ", 300);

/** Text of wide characters among short words: 200 characters of it take far more than 200 bytes. */
const WIDE = long("日本語 ab\tc 😀 ", 3000);

function message(id: string, parent: string | null, msg: Record<string, unknown>, seconds: number): SessionEntry {
  return entry("message", id, parent, { message: { timestamp: seconds, ...msg } }, { timestamp: at(seconds) });
}

function assistant(id: string, parent: string, content: unknown[], seconds: number, extra: Record<string, unknown> = {}): SessionEntry {
  return message(id, parent, { role: "assistant", content, provider: "anthropic", model: "claude-test", stopReason: "toolUse", ...extra }, seconds);
}

function result(id: string, parent: string, callId: string, tool: string, text: string, seconds: number): SessionEntry {
  return message(id, parent, { role: "toolResult", toolCallId: callId, toolName: tool, content: [{ type: "text", text }], details: { output: text }, isError: false }, seconds);
}

/** The entries of the session (ids are 8 hex digits, as the chaining script wants them). */
export function longLineEntries(): SessionEntry[] {
  const output = long("line of output\twith a tab \"and quotes\" ünïcödé 😀\n", 30_000);
  return [
    { ...modelChange("e0000001", null, "anthropic", "claude-test"), timestamp: at(1) },
    message("a0000001", "e0000001", { role: "user", content: TRICKY + long("x", 5000) }, 2),
    message("c0000001", "a0000001", { role: "user", content: WIDE + long("x", 5000) }, 2.5),
    assistant("a0000002", "c0000001", [
      { type: "thinking", thinking: long("thinking hard ", 8000) },
      { type: "text", text: long("   ", 700) + TRICKY },
      { type: "toolCall", id: "call-1", name: "bash", arguments: { command: long("echo  'a\tb'  ", 3000) } },
      { type: "toolCall", id: "call-5", name: "bash", arguments: { command: WIDE } },
      { type: "toolCall", id: "call-2", name: "read", arguments: { path: "/home/u/src/" + long("deep/", 300) + "a.ts", offset: 10, limit: 20 } },
      { type: "toolCall", id: "call-3", name: "custom_tool", arguments: { query: long("q\u0001 ", 4000), nested: { list: [long("n", 2000)] } } },
    ], 3),
    result("a0000003", "a0000002", "call-1", "bash", output, 4),
    result("a0000004", "a0000003", "call-2", "read", long("😀 emoji ", 20_000), 5),
    result("a0000005", "a0000004", "call-3", "custom_tool", long("é", 9000), 6),
    result("a0000006", "a0000005", "call-unknown", "mystery", output, 7),
    result("c0000002", "a0000006", "call-5", "bash", output, 7.5),
    assistant("c0000003", "c0000002", [{ type: "text", text: WIDE }, { type: "text", text: long("t", 3000) }], 7.6, { stopReason: "stop" }),
    assistant("a0000007", "c0000003", [{ type: "thinking", thinking: long("only thinking ", 6000) }], 8, { stopReason: "error", errorMessage: long("  boom\n", 3000) }),
    assistant("c0000004", "a0000007", [], 8.5, { stopReason: "error", errorMessage: WIDE }),
    assistant("a0000008", "c0000004", [{ type: "text", text: long(" ", 5000) }], 9, { stopReason: "aborted" }),
    assistant("a0000009", "a0000008", [{ type: "thinking", thinking: long("no text ", 6000) }, { type: "toolCall", id: "call-4", name: "edit", arguments: { path: "b.ts", oldText: long("o", 5000), newText: long("n", 5000) } }], 10),
    result("a000000a", "a0000009", "call-4", "edit", output, 11),
    message("a000000b", "a000000a", { role: "bashExecution", command: long("ls -la ", 4000), output, exitCode: 0 }, 12),
    message("c0000005", "a000000b", { role: "bashExecution", command: WIDE, output, exitCode: 0 }, 12.5),
    entry("custom_message", "c0000006", "c0000005", { customType: "wide", content: WIDE, display: true }, { timestamp: at(12.7) }),
    entry("custom_message", "a000000c", "c0000006", { customType: "note", content: [{ type: "text", text: TRICKY + long("c", 4000) }], display: true }, { timestamp: at(13) }),
    { ...label("a000000d", "a000000c", "a0000001", long("a long label ", 300)), timestamp: at(14) },
    { ...label("a000000e", "a000000d", "a0000004", "tool result label"), timestamp: at(15) },
    message("b0000001", "a0000002", { role: "user", content: [{ type: "text", text: "side " + long("branch ", 3000) }, { type: "text", text: TRICKY }] }, 16),
    entry("branch_summary", "b0000002", "b0000001", { fromId: "a0000002", summary: TRICKY + long("s", 5000) }, { timestamp: at(17) }),
    entry("branch_summary", "b0000003", "b0000002", { fromId: "a0000002", summary: WIDE }, { timestamp: at(17.5) }),
    { ...compaction("a000000f", "a000000e", { summary: long("summary ", 6000), tokensBefore: 123456, firstKeptEntryId: "a000000c" }), timestamp: at(18) },
    { ...sessionInfo("a0000010", "a000000f", "named " + long("n", 100)), timestamp: at(19) },
    message("a0000011", "a0000010", { role: "user", content: [{ type: "text", text: long("\n", 2000) }, { type: "text", text: "after blanks" }, { type: "image", data: long("A", 8000), mimeType: "image/png" }] }, 20),
    assistant("a0000012", "a0000011", [{ type: "text", text: TRICKY }], 21, { stopReason: "stop" }),
  ];
}

/** The session as JSONL text, header first. */
export function longLineText(): string {
  return jsonl({ type: "session", version: 3, id: "long-0001", timestamp: at(0), cwd: "/work/proj" }, ...longLineEntries());
}
