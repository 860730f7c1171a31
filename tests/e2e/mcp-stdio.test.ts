/**
 * `pi-session mcp` as clients run it: the compiled binary (and the sources under Node, Deno and Bun) spawned
 * over stdio by the official SDK's client, by the MCP Inspector's CLI, and by pi's own MCP
 * client (@earendil-works/pi-mcp); pi's config loader reads what `mcp --install` wrote. Tool
 * results are compared with what the binary prints for the same command with --json.
 * @module
 */
import { execFile } from "node:child_process";
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createMcpToolName, limitMcpContent, McpClient, MCP_OUTPUT_MAX_BYTES, normalizeMcpInputSchema, StdioTransport, toLlmContent } from "@earendil-works/pi-mcp";
import { compileArgs } from "../../scripts/compile.ts";
import { BIG_ID, BIG_PROJECT, makeSessions } from "../mcp/_sessions.ts";

const root = new URL("../..", import.meta.url).pathname;
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);

function exec(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env: options.env, cwd: options.cwd ?? root, maxBuffer: 1 << 28 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe("pi-session mcp over stdio", { skip: isNode ? false : "runs under Node; it drives the binary and Node itself" }, () => {
  let dirs: ReturnType<typeof makeSessions>;
  let binary: string;
  let env: Record<string, string>;
  const server = () => ["--agent-dir", dirs.agentDir, "--cwd", BIG_PROJECT, "mcp", "--all", "--no-redact"];

  before(async () => {
    dirs = makeSessions(60, 20_000);
    binary = join(dirs.root, "pi-session");
    const built = await exec(bin("bun"), compileArgs(binary), { env: { PATH: process.env.PATH ?? "", HOME: dirs.home } });
    assert.equal(built.code, 0, built.stderr);
    env = { PATH: process.env.PATH ?? "", HOME: dirs.home, TZ: "UTC", NO_COLOR: "1" };
  });
  after(() => rmSync(dirs.root, { recursive: true, force: true }));

  async function binaryJson(argv: string[]): Promise<unknown> {
    const r = await exec(binary, ["--agent-dir", dirs.agentDir, "--cwd", BIG_PROJECT, "--json", ...argv], { env });
    assert.ok(r.code <= 1, r.stderr);
    return JSON.parse(r.stdout);
  }

  const launchers: [string, () => [string, string[]]][] = [
    ["binary", () => [binary, server()]],
    ["node sources", () => [process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts"), ...server()]]],
    ["deno sources", () => [bin("deno"), ["run", "-A", "--quiet", join(root, "src/cli/main.ts"), ...server()]]],
    ["bun sources", () => [bin("bun"), [join(root, "src/cli/main.ts"), ...server()]]],
  ];
  for (const [label, launch] of launchers) {
    it(`the SDK client calls every tool of the ${label}; results equal the binary's --json`, async () => {
      const [command, args] = launch();
      const client = new Client({ name: "e2e", version: "1" });
      await client.connect(new StdioClientTransport({ command, args, env, cwd: root, stderr: "pipe" }));
      try {
        assert.equal(client.getServerVersion()?.name, "pi-session");
        const { tools } = await client.listTools();
        assert.equal(tools.length, 8);
        const cases: [string, Record<string, unknown>, string[]][] = [
          ["search_sessions", { query: "exports", limit: 5 }, ["search", "--all", "--limit", "5", "exports"]],
          ["list_sessions", {}, ["list", "--all"]],
          ["session_info", { session: "019c4a1e" }, ["info", "019c4a1e"]],
          ["read_session", { session: "019c4a1e", full: true }, ["show", "--format", "json", "019c4a1e"]],
          ["session_tree", { session: "019c4a1e" }, ["tree", "019c4a1e"]],
          ["get_context", { session: "019c4a1e", entry: "label:rounding-bug" }, ["context", "--leaf", "label:rounding-bug", "019c4a1e"]],
          ["files_touched", { path: "src/part-7.ts" }, ["files", "--all", "src/part-7.ts"]],
          ["usage_stats", { by: "month" }, ["stats", "--all", "--by", "month"]],
        ];
        for (const [name, toolArgs, argv] of cases) {
          const result = await client.callTool({ name, arguments: toolArgs });
          assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result.content)}`);
          assert.deepEqual((result.structuredContent as { result: unknown }).result, await binaryJson(argv), name);
        }
        // Cursors walk the multi-MB session to its last entry.
        let cursor: string | undefined;
        let last: string | undefined;
        let pages = 0;
        do {
          const page = await client.callTool({ name: "read_session", arguments: { session: BIG_ID, ...(cursor ? { cursor } : {}) } });
          const value = page.structuredContent as { result: { entries: { id: string }[]; leafId: string }; page: { nextCursor: string | null } };
          last = value.result.entries.at(-1)?.id;
          cursor = value.page.nextCursor ?? undefined;
          if (!cursor) assert.equal(last, value.result.leafId);
          pages++;
        } while (cursor);
        assert.ok(pages > 5);
        await assert.rejects(client.callTool({ name: "read_session", arguments: { session: "" } }), /session must not be empty/);
      } finally {
        await client.close();
      }
    });
  }

  it("writes nothing but JSON-RPC on stdout", async () => {
    const child = spawn(binary, server(), { env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const send = (message: object) => child.stdin.write(JSON.stringify(message) + "\n");
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_sessions", arguments: { limit: 2 } } });
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "session_info", arguments: { session: "nope" } } });
    await new Promise<void>((resolve) => {
      const check = () => (out.split("\n").filter(Boolean).length >= 3 ? resolve() : setTimeout(check, 20));
      check();
    });
    child.stdin.end();
    const code = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(code, 0, err);
    const messages = out.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    assert.deepEqual(messages.map((m) => [m.jsonrpc, m.id]), [["2.0", 1], ["2.0", 2], ["2.0", 3]]);
    assert.equal(messages[2].result.isError, true);
    assert.match(err, /pi-session mcp: serving every project's sessions on stdio/);
  });

  it("the MCP Inspector's CLI lists and calls the tools of the binary", async () => {
    // The Inspector finds its own package.json relative to the process cwd: run it from its build folder.
    const cwd = join(root, "node_modules/@modelcontextprotocol/inspector-cli/build");
    const inspector = (...args: string[]) => exec(process.execPath, ["cli.js", "--cli", binary, ...server(), ...args], { env, cwd });
    const listed = await inspector("--method", "tools/list");
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout).tools.map((t: { name: string }) => t.name).sort(), [
      "files_touched", "get_context", "list_sessions", "read_session", "search_sessions", "session_info", "session_tree", "usage_stats",
    ]);
    const called = await inspector("--method", "tools/call", "--tool-name", "session_info", "--tool-arg", `session=${BIG_ID}`);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(JSON.parse(called.stdout).structuredContent.result.id, BIG_ID);
  });

  it("pi's own MCP client connects to the binary and calls the tools as pi does", async () => {
    const client = new McpClient({ name: "pi", version: "1.6.0" });
    await client.connect(new StdioTransport({ command: binary, args: server(), env, inheritEnv: false, stderr: "pipe" }));
    try {
      const tools = await client.listTools();
      assert.deepEqual(tools.map((t) => createMcpToolName("pi-session", t.name)).slice(0, 2), ["mcp__pi_session__search_sessions", "mcp__pi_session__list_sessions"]);
      for (const tool of tools) assert.equal(normalizeMcpInputSchema(tool.inputSchema as Record<string, unknown>).type, "object");
      const hits = await client.callTool("search_sessions", { query: "exports x" });
      assert.notEqual(hits.isError, true);
      assert.ok((hits.structuredContent as { result: unknown[] }).result.length > 0);
      // At the default budget, what pi hands the model is never cut by pi's own 20 KiB limit.
      const page = await client.callTool("read_session", { session: BIG_ID });
      const limited = await limitMcpContent(toLlmContent(page));
      assert.deepEqual(limited.content, toLlmContent(page));
      assert.ok(new TextEncoder().encode((page.content![0] as { text: string }).text).length <= MCP_OUTPUT_MAX_BYTES);
      const missing = await client.callTool("session_info", { session: "ffffffff" });
      assert.equal(missing.isError, true);
    } finally {
      await client.close();
    }
  });

  it("pi's config loader reads the entry mcp --install wrote", async () => {
    const agentDir = join(dirs.root, "pi-agent");
    const r = await exec(binary, ["--agent-dir", agentDir, "mcp", "--install", "--all"], { env });
    assert.equal(r.code, 0, r.stderr);
    const { loadMcpConfig } = await import("../../node_modules/@earendil-works/pi-coding-agent/dist/extensions/mcp/config.js");
    const loaded = loadMcpConfig({ agentDir, cwd: dirs.root, projectTrusted: false });
    assert.deepEqual(loaded.errors, []);
    const entry = loaded.servers.find((s: { name: string }) => s.name === "pi-session");
    assert.deepEqual((entry?.config as { args?: string[] } | undefined)?.args, ["mcp", "--all", "--agent-dir", agentDir]);
  });
});
