/**
 * A session for export tests: a main line with thinking, tool calls (read, edit, bash), an
 * image, usage on every assistant turn, a label, a name, a side branch, a compaction, a
 * planted secret and hostile strings in every field a viewer shows. Plus helpers that take
 * an HTML export apart again (data blocks, meta, scripts).
 * @module
 */
import { at, compaction, entry, header, label, modelChange, sessionInfo } from "../core/_builders.ts";
import type { SessionEntry } from "../../src/core/mod.ts";

export const SESSION_ID = "exp-0001";
export const SECRET = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
/** A 1×1 PNG. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Strings that would run script if a viewer ever put them into markup. */
export const XSS = [
  "</script><script>window.__pwned='script'</script>",
  "<img src=x onerror=\"window.__pwned='img'\">",
  "<svg onload=\"window.__pwned='svg'\"><script>window.__pwned='svg2'</script></svg>",
  "[click](javascript:window.__pwned='link')",
  "<a href=\"javascript:window.__pwned='a'\">a</a>",
  "<style>body{display:none}</style><link rel=stylesheet href=\"https://evil.example/x.css\">",
  "<iframe src=\"https://evil.example/\"></iframe><img src=\"https://evil.example/pixel.png\">",
  "![remote](https://evil.example/pixel.png)",
].join(" ");

function usage(input: number, output: number, cost: number) {
  return { input, output, cacheRead: 100, cacheWrite: 10, totalTokens: input + output + 110, cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost } };
}

function assistantEntry(id: string, parent: string, content: unknown[], seconds: number, extra: Record<string, unknown> = {}): SessionEntry {
  const message = { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-test", usage: usage(1000 + seconds, 50, 0.01 * seconds), stopReason: "stop", timestamp: seconds, ...extra };
  return entry("message", id, parent, { message }, { timestamp: at(seconds) });
}

function message(id: string, parent: string | null, msg: Record<string, unknown>, seconds: number): SessionEntry {
  return entry("message", id, parent, { message: { timestamp: seconds, ...msg } }, { timestamp: at(seconds) });
}

/** The entries (main line ends last, so it is the default leaf). */
export function fixtureEntries(): SessionEntry[] {
  return [
    { ...modelChange("m0000001", null, "anthropic", "claude-test"), timestamp: at(1) },
    message("u0000001", "m0000001", { role: "user", content: [{ type: "text", text: `Fix the **bug**. Key: ${SECRET} ${XSS}` }, { type: "image", data: PNG, mimeType: "image/png" }, { type: "image", data: "PHN2Zz4=", mimeType: "image/svg+xml\"><script>window.__pwned='mime'</script>" }] }, 2),
    assistantEntry("a0000001", "u0000001", [
      { type: "thinking", thinking: "Let me look at the file first." },
      { type: "text", text: "Reading it." },
      { type: "toolCall", id: "call-1", name: "read", arguments: { path: "src/a.ts" } },
    ], 3, { stopReason: "toolUse" }),
    message("r0000001", "a0000001", { role: "toolResult", toolCallId: "call-1", toolName: "read", content: [{ type: "text", text: `export const a = 1 - 1;\n// ${XSS}` }], isError: false }, 4),
    assistantEntry("a0000002", "r0000001", [{ type: "toolCall", id: "call-2", name: "bash", arguments: { command: "npm test </script>" } }], 5, { stopReason: "toolUse" }),
    message("r0000002", "a0000002", { role: "toolResult", toolCallId: "call-2", toolName: "bash", content: [{ type: "text", text: "1 failing" }], isError: true }, 6),
    assistantEntry("a0000003", "r0000002", [{ type: "text", text: "Fixed:\n\n```ts\nexport const a = 1 + 1;\n```" }], 7),
    { ...label("l0000001", "a0000003", "a0000003", "fixed </script><b>label</b>"), timestamp: at(8) },
    message("u0000002", "l0000001", { role: "user", content: "Try another way" }, 9),
    assistantEntry("a0000004", "u0000002", [{ type: "text", text: "Side answer" }], 10),
    { ...compaction("c0000001", "a0000003", { summary: "We fixed `a` </script>", tokensBefore: 4321, firstKeptEntryId: "a0000003" }), timestamp: at(11) },
    entry("custom_message", "x0000001", "c0000001", { customType: "ext<script>window.__pwned='type'</script>", content: XSS, display: true }, { timestamp: at(12) }),
    message("u0000003", "x0000001", { role: "user", content: "Thanks" }, 13),
    assistantEntry("a0000005", "u0000003", [{ type: "text", text: "Done." }], 14),
    { ...sessionInfo("s0000001", "a0000005", `Export test </title><script>window.__pwned='name'</script>`), timestamp: at(15) },
  ];
}

/** The ids of the default branch (root to the last entry). */
export const MAIN_BRANCH = ["m0000001", "u0000001", "a0000001", "r0000001", "a0000002", "r0000002", "a0000003", "c0000001", "x0000001", "u0000003", "a0000005", "s0000001"];
export const SIDE_BRANCH = ["m0000001", "u0000001", "a0000001", "r0000001", "a0000002", "r0000002", "a0000003", "l0000001", "u0000002", "a0000004"];

/** The session file's text. */
export function fixtureText(entries: SessionEntry[] = fixtureEntries()): string {
  return [header(SESSION_ID, 3, { cwd: "/home/u/proj" }), ...entries].map((e) => JSON.stringify(e)).join("\n") + "\n";
}

/** An HTML export taken apart: the entry lines, the meta block, and every script element. */
export interface ParsedHtml {
  entries: Record<string, unknown>[];
  meta: Record<string, unknown>;
  scripts: { attrs: string; body: string }[];
  csp: string;
}

export function parseHtmlExport(html: string): ParsedHtml {
  const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attrs: m[1], body: m[2] }));
  const data = scripts.filter((s) => s.attrs.includes("pi-session-data")).map((s) => s.body).join("");
  const entries = data.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  const metaScript = scripts.find((s) => s.attrs.includes("pi-session-meta"));
  const meta = JSON.parse(metaScript?.body ?? "null");
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? "";
  return { entries, meta, scripts, csp };
}
