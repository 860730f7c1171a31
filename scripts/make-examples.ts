/**
 * Writes the sample agent directory shipped in `examples/agent` (and a few damaged files in
 * `examples/broken`), so the README's first command works with no `~/.pi`. Uses our own
 * SessionManager with a pinned clock and ids: running it again gives the same bytes.
 * Run from the repository root: `npx tsx scripts/make-examples.ts`.
 * @module
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AgentMessage, AssistantMessage, Usage } from "../src/core/format/types.ts";
import { encodeCwd } from "../src/core/storage/layout.ts";
import { nodeFileSystem } from "../src/io/node.ts";
import { SessionManager } from "../src/session/session-manager.ts";

const AGENT = "examples/agent";
let tick = Date.parse("2026-03-02T09:00:00.000Z");
const clock = () => new Date((tick += 7_000));
let idCounter = 0;
const newId = () => (0x1a2b0000 + (idCounter++) * 0x1111).toString(16).padStart(8, "0").slice(-8);
// UUIDv7-shaped, like pi 1.x writes; distinct first characters, as sessions made minutes apart have.
const sessionIds = [
  "019c4a1e-5b20-7c3d-8e41-a2f6c9d0b311",
  "019c4a52-0d7a-7f18-b9c2-4e85d1a7c622",
  "019c4a6b-93e4-7a05-8d6f-1c3b7e2f9a43",
  "019c4a8d-2f61-7b9e-a0d4-6f21c8e5b754",
  "019c4ab0-7c18-7e2a-9b35-d8e4a1f06c85",
];
let sessionCounter = 0;
const options = {
  fs: nodeFileSystem,
  clock,
  newId,
  newSessionId: () => sessionIds[sessionCounter++],
  storage: { env: () => undefined, home: "/home/dev", processCwd: process.cwd() },
  agentDir: AGENT,
};

function usage(input: number, output: number, cacheRead = 0, cacheWrite = 0): Usage {
  const cost = { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 0.3e-6, cacheWrite: cacheWrite * 3.75e-6, total: 0 };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: tick });
function assistant(text: string, calls: { id: string; name: string; arguments: Record<string, unknown> }[] = [], model = "claude-sonnet-4-5"): AssistantMessage {
  return {
    role: "assistant",
    content: [...(text ? [{ type: "text" as const, text }] : []), ...calls.map((c) => ({ type: "toolCall" as const, ...c }))],
    api: "anthropic-messages",
    provider: "anthropic",
    model,
    usage: usage(1200 + text.length, 80 + text.length, 9000, 400),
    stopReason: calls.length ? "toolUse" : "stop",
    timestamp: tick,
  };
}
const toolResult = (id: string, name: string, text: string, isError = false): AgentMessage =>
  ({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError, timestamp: tick });

async function webshop(): Promise<string> {
  const cwd = "/home/dev/webshop";
  const sm = SessionManager.create(cwd, `${AGENT}/sessions/${encodeCwd(cwd)}`, options);
  await sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  await sm.appendThinkingLevelChange("medium");
  const ask = await sm.appendMessage(user("The cart should accept discount codes. Where is the total computed?"));
  await sm.appendMessage(assistant("Let me look at the cart module.", [{ id: "call_1", name: "read", arguments: { path: "src/cart.ts", offset: 1, limit: 40 } }]));
  await sm.appendMessage(toolResult("call_1", "read", "export function total(items: Item[]): number {\n  return items.reduce((sum, i) => sum + i.price * i.qty, 0);\n}\n"));
  const plan = await sm.appendMessage(assistant("`total()` in src/cart.ts sums price × quantity. I'll add a `discount` parameter."));
  await sm.appendLabelChange(ask, "discount-start");
  await sm.appendMessage(user("Use a percentage, and reject codes that expired."));
  await sm.appendMessage(assistant("", [{ id: "call_2", name: "edit", arguments: { path: "src/cart.ts", oldText: "return items", newText: "const sum = items" } }]));
  await sm.appendMessage(toolResult("call_2", "edit", "Edited src/cart.ts"));
  await sm.appendMessage(assistant("", [{ id: "call_3", name: "bash", arguments: { command: "npm test -- cart" } }]));
  await sm.appendMessage(toolResult("call_3", "bash", "FAIL src/cart.test.ts\n  expected 90, received 100", true));
  const fixed = await sm.appendMessage(assistant("The test shows the discount is not applied yet; fixing the rounding."));
  await sm.appendUsage("cache_warming", "anthropic", "claude-sonnet-4-5", usage(0, 0, 0, 12000), "prompt cache warm-up");
  // Go back and try another approach, leaving a summary of the abandoned one.
  sm.branch(plan);
  await sm.branchWithSummary(plan, "Tried percentage discounts in total(); the cart test failed on rounding.", { readFiles: ["src/cart.ts"], modifiedFiles: ["src/cart.ts"] });
  await sm.appendMessage(user("Instead, model discounts as a separate line item."));
  await sm.appendMessage(assistant("Good idea: a `DiscountLine` keeps total() simple.", [{ id: "call_4", name: "write", arguments: { path: "src/discount.ts", content: "export interface DiscountLine { code: string; percent: number }\n" } }]));
  await sm.appendMessage(toolResult("call_4", "write", "Wrote src/discount.ts"));
  const done = await sm.appendMessage(assistant("Added src/discount.ts with the DiscountLine type."));
  await sm.appendLabelChange(done, "line-items");
  await sm.appendLabelChange(fixed, "rounding-bug");
  await sm.appendCompaction("Discount codes: the cart keeps total() unchanged; discounts are separate DiscountLine items (src/discount.ts).", done, 48_200, { readFiles: ["src/cart.ts"], modifiedFiles: ["src/discount.ts"] }, false, usage(30_000, 900));
  await sm.appendMessage(user("Now show the discount in the checkout summary."));
  const last = await sm.appendMessage(assistant("The checkout summary now lists each DiscountLine under the subtotal."));
  await sm.appendContextEdit(last, { content: "The checkout summary lists discounts under the subtotal." });
  await sm.appendSessionInfo("Cart discount codes");
  return sm.getSessionFile()!;
}

async function webshopCheckpoint(): Promise<void> {
  const cwd = "/home/dev/webshop";
  const sm = SessionManager.create(cwd, `${AGENT}/sessions/${encodeCwd(cwd)}`, options);
  await sm.appendMessage({ role: "system", content: "You are a careful coding assistant.", timestamp: tick });
  await sm.appendMessage(user("Speed up the product search page."));
  await sm.appendMessage(assistant("Profiling shows the N+1 query in listProducts()."));
  await sm.appendCompaction("Search page: found an N+1 query in listProducts().", undefined, 91_000, undefined, false, undefined, {
    systemMessage: { role: "system", content: "You are a careful coding assistant.", timestamp: tick },
    retainedTail: [user("Fix the N+1 query."), assistant("Batched the lookups with one IN query.")],
  });
  await sm.appendMessage(user("Add an index too?"));
  await sm.appendMessage(assistant("Yes: an index on products(category_id) makes the batched query fast."));
}

async function cliTool(): Promise<void> {
  const cwd = "/home/dev/tools/logcat";
  const sm = SessionManager.create(cwd, `${AGENT}/sessions/${encodeCwd(cwd)}`, options);
  await sm.appendMessage({ role: "bashExecution", command: "ls logs", output: "app.log\nerror.log", exitCode: 0, cancelled: false, truncated: false, timestamp: tick });
  await sm.appendMessage({ role: "bashExecution", command: "cat ~/.netrc", output: "(private)", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true, timestamp: tick });
  await sm.appendMessage(user("Write a grep wrapper that colours ERROR lines."));
  await sm.appendCustomEntry("todo-extension", { open: 1 });
  await sm.appendCustomMessageEntry("style-guide", "Use POSIX sh, no bashisms.", true);
  await sm.appendMessage(assistant("Here is `logcat`: a sh script using grep --color=always -E 'ERROR|$'.", [], "gpt-5"));
}

function legacy(): void {
  const dir = `${AGENT}/sessions/${encodeCwd("/home/dev/old-project")}`;
  mkdirSync(dir, { recursive: true });
  const v1 = [
    { type: "session", id: "legacy-v1-session", timestamp: "2025-01-10T08:00:00.000Z", cwd: "/home/dev/old-project" },
    { type: "message", timestamp: "2025-01-10T08:00:05.000Z", message: { role: "user", content: "Rename the config loader", timestamp: 1736496005000 } },
    { type: "message", timestamp: "2025-01-10T08:00:09.000Z", message: { role: "assistant", content: [{ type: "text", text: "Renamed loadCfg to loadConfig." }], provider: "anthropic", model: "claude-3-5-sonnet", usage: usage(800, 40), stopReason: "stop", timestamp: 1736496009000 } },
    { type: "compaction", timestamp: "2025-01-10T08:10:00.000Z", summary: "Renamed the config loader.", firstKeptEntryIndex: 2, tokensBefore: 12000 },
    { type: "message", timestamp: "2025-01-10T08:10:05.000Z", message: { role: "user", content: "Thanks!", timestamp: 1736496605000 } },
  ];
  writeFileSync(`${dir}/2025-01-10T08-00-00-000Z_legacy-v1-session.jsonl`, v1.map((o) => JSON.stringify(o)).join("\n") + "\n");
  const v2 = [
    { type: "session", version: 2, id: "legacy-v2-session", timestamp: "2025-06-01T12:00:00.000Z", cwd: "/home/dev/old-project" },
    { type: "message", id: "0a0a0a01", parentId: null, timestamp: "2025-06-01T12:00:01.000Z", message: { role: "user", content: "Lint the repo", timestamp: 1748779201000 } },
    { type: "message", id: "0a0a0a02", parentId: "0a0a0a01", timestamp: "2025-06-01T12:00:02.000Z", message: { role: "hookMessage", customType: "lint-hook", content: "eslint: 0 problems", display: true, timestamp: 1748779202000 } },
    { type: "message", id: "0a0a0a03", parentId: "0a0a0a02", timestamp: "2025-06-01T12:00:04.000Z", message: { role: "assistant", content: [{ type: "text", text: "The repo is clean." }], provider: "openai", model: "gpt-4o", usage: usage(500, 20), stopReason: "stop", timestamp: 1748779204000 } },
  ];
  writeFileSync(`${dir}/2025-06-01T12-00-00-000Z_legacy-v2-session.jsonl`, v2.map((o) => JSON.stringify(o)).join("\n") + "\n");
}

function broken(): void {
  const dir = "examples/broken";
  mkdirSync(dir, { recursive: true });
  const header = JSON.stringify({ type: "session", version: 3, id: "broken-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" });
  const entry = (id: string, parentId: string | null, text: string) =>
    JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: text, timestamp: 1 } });
  writeFileSync(`${dir}/torn-tail.jsonl`, [header, entry("aaaa0001", null, "hello"), '{"type":"message","id":"aaaa0002","par'].join("\n"));
  writeFileSync(`${dir}/cycle.jsonl`, [header, entry("bbbb0001", "bbbb0002", "one"), entry("bbbb0002", "bbbb0001", "two"), ""].join("\n"));
  writeFileSync(`${dir}/not-a-session.jsonl`, '{"hello":"world"}\n');
}

rmSync("examples", { recursive: true, force: true });
const parent = await webshop();
const fork = await SessionManager.open(parent, undefined, options);
const firstUser = fork.getEntries().find((e) => e.type === "message" && e.message.role === "user")!;
const forkPath = (await fork.createBranchedSession(fork.getChildren(firstUser.id)[0].id))!;
// pi stores parentSession as an absolute path; keep the sample relative to the repository.
writeFileSync(forkPath, readFileSync(forkPath, "utf8").replace(`"parentSession":"${process.cwd()}/`, '"parentSession":"'));
await webshopCheckpoint();
await cliTool();
legacy();
broken();
console.log("wrote examples/agent and examples/broken");
