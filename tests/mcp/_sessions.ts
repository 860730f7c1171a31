/**
 * Sessions for the MCP tests: a copy of examples/agent in a temp folder, plus a multi-MB
 * session (long tool results and thinking) and one holding a secret, in a project of their own,
 * and a session with a torn line in another.
 * @module
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultSessionDir } from "../../src/core/storage/layout.ts";

export const BIG_PROJECT = "/home/dev/big";
export const BIG_ID = "019d0000-0000-7000-8000-00000000b16b";
export const SECRET_ID = "019d0000-0000-7000-8000-0000005ec2e7";
export const SECRET = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
export const BROKEN_ID = "019d0000-0000-7000-8000-0000000b40ce";
export const BROKEN_PROJECT = "/home/dev/broken";

function line(value: unknown): string {
  return JSON.stringify(value) + "\n";
}

/** A session of `turns` turns, each a user prompt, an assistant tool call with thinking, a ~`outputChars` tool result, an answer. */
export function bigSession(turns: number, outputChars: number): string {
  const start = Date.parse("2026-02-01T10:00:00.000Z");
  let text = line({ type: "session", version: 3, id: BIG_ID, timestamp: new Date(start).toISOString(), cwd: BIG_PROJECT });
  let parent: string | null = null;
  let n = 0;
  const add = (entry: Record<string, unknown>) => {
    const id = (++n).toString(16).padStart(8, "0");
    text += line({ ...entry, id, parentId: parent, timestamp: new Date(start + n * 1000).toISOString() });
    parent = id;
  };
  const usage = { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { input: 0.0003, output: 0.0003, cacheRead: 0, cacheWrite: 0, total: 0.0006 } };
  const assistant = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "toolUse" };
  for (let t = 0; t < turns; t++) {
    const ts = start + n * 1000;
    add({ type: "message", message: { role: "user", content: `Turn ${t}: read file src/part-${t}.ts and explain it`, timestamp: ts } });
    add({
      type: "message",
      message: { role: "assistant", content: [{ type: "thinking", thinking: `thinking about part ${t} `.repeat(80) }, { type: "toolCall", id: `call_${t}`, name: "read", arguments: { path: `src/part-${t}.ts` } }], ...assistant, timestamp: ts },
    });
    add({ type: "message", message: { role: "toolResult", toolCallId: `call_${t}`, toolName: "read", content: [{ type: "text", text: `// part ${t}\n` + "export const x = 1;\n".repeat(Math.ceil(outputChars / 20)) }], isError: false, timestamp: ts } });
    add({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `Part ${t} exports x.` }], ...assistant, stopReason: "stop", timestamp: ts } });
  }
  return text;
}

function secretSession(): string {
  const ts = Date.parse("2026-02-02T10:00:00.000Z");
  return line({ type: "session", version: 3, id: SECRET_ID, timestamp: new Date(ts).toISOString(), cwd: BIG_PROJECT }) +
    line({ type: "message", id: "5ec00001", parentId: null, timestamp: new Date(ts).toISOString(), message: { role: "user", content: `my key is ${SECRET} keep it`, timestamp: ts } });
}

/** A session whose second line is torn. */
function brokenSession(): string {
  const ts = Date.parse("2026-02-03T10:00:00.000Z");
  return line({ type: "session", version: 3, id: BROKEN_ID, timestamp: new Date(ts).toISOString(), cwd: BROKEN_PROJECT }) +
    '{"type":"message","id":"b40c0001","par\n' +
    line({ type: "message", id: "b40c0002", parentId: null, timestamp: new Date(ts).toISOString(), message: { role: "user", content: "after the torn line", timestamp: ts } });
}

/** A temp folder with `agent/` (examples plus the big and the secret session) and `home/`. */
export function makeSessions(turns = 120, outputChars = 20_000): { root: string; agentDir: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-session-mcp-"));
  const agentDir = join(root, "agent");
  cpSync(new URL("../../examples/agent", import.meta.url).pathname, agentDir, { recursive: true });
  const dir = defaultSessionDir(BIG_PROJECT, agentDir, BIG_PROJECT);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `2026-02-01T10-00-00-000Z_${BIG_ID}.jsonl`), bigSession(turns, outputChars));
  writeFileSync(join(dir, `2026-02-02T10-00-00-000Z_${SECRET_ID}.jsonl`), secretSession());
  const brokenDir = defaultSessionDir(BROKEN_PROJECT, agentDir, BROKEN_PROJECT);
  mkdirSync(brokenDir, { recursive: true });
  writeFileSync(join(brokenDir, `2026-02-03T10-00-00-000Z_${BROKEN_ID}.jsonl`), brokenSession());
  const home = join(root, "home");
  mkdirSync(home);
  return { root, agentDir, home };
}
