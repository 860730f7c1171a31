/**
 * A small agent dir for the catalog commands' tests: two projects, a session with usage, a
 * fork of it (copied entries, same ids and timestamps) and tool calls that touch files.
 * @module
 */
import { addSession, CWD, header, jsonl, sessionDir, userEntry, writeText } from "./_harness.ts";
import type { FileSystem } from "../../src/io/file-system.ts";

export const OTHER = "/work/other";

function usage(n: number) {
  return { input: n, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: n + 1, cost: { input: n / 100, output: 0, cacheRead: 0, cacheWrite: 0, total: n / 100 } };
}

/** An assistant entry with `n` input tokens costing n/100, and optional tool calls. */
export function paid(id: string, parentId: string | null, timestamp: string, n: number, calls: object[] = [], text = "done"): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp,
    message: { role: "assistant", content: [{ type: "text", text }, ...calls], api: "anthropic-messages", provider: "anthropic", model: "claude-test", usage: usage(n), stopReason: "stop", timestamp: Date.parse(timestamp) },
  };
}

export const call = (name: string, args: object) => ({ type: "toolCall", id: `c-${name}`, name, arguments: args });

/** Writes the sessions; returns their paths. */
export async function usageSessions(fs: FileSystem): Promise<{ parent: string; fork: string; other: string }> {
  const u1 = { ...userEntry("u1", null, "please fix the Parser in src/parser.ts"), timestamp: "2025-06-01T10:00:00.000Z" };
  const a1 = paid("a1", "u1", "2025-06-01T10:00:01.000Z", 100, [call("read", { path: "src/parser.ts" }), call("bash", { command: "npm test -- test/parser.test.ts" })], "Found the parser bug");
  const a2 = paid("a2", "a1", "2025-06-02T10:00:00.000Z", 200, [call("edit", { path: "/work/proj/src/parser.ts", oldText: "a", newText: "b" })]);
  const parent = await addSession(fs, "11111111-aaaa", [u1, a1, a2, { type: "session_info", id: "n1", parentId: "a2", timestamp: "2025-06-02T10:00:01.000Z", name: "Parser fix" }]);
  const forkPath = `${sessionDir()}/2025-06-03T10-00-00-000Z_22222222-bbbb.jsonl`;
  const a3 = paid("a3", "a1", "2025-06-03T10:00:00.000Z", 400, [call("write", { path: "docs/notes.md", content: "x" })], "wrote notes in 日本語");
  await writeText(fs, forkPath, jsonl(header("22222222-bbbb", CWD, { timestamp: "2025-06-03T10:00:00.000Z", parentSession: parent }), u1, a1, a3));
  const other = await addSession(fs, "33333333-cccc", [paid("o1", null, "2025-07-01T10:00:00.000Z", 800, [call("read", { path: "../proj/src/parser.ts" })], "other project")], { cwd: OTHER });
  return { parent, fork: forkPath, other };
}
