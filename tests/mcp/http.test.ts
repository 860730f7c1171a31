import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { detectFileSystem } from "../../src/io/mod.ts";
import { mcpHttpHandler } from "../../src/mcp/http.ts";
import { BIG_ID, BIG_PROJECT, makeSessions } from "./_sessions.ts";

describe("mcpHttpHandler() (Streamable HTTP, stateless, for serve's /mcp)", () => {
  let dirs: ReturnType<typeof makeSessions>;
  let handler: ReturnType<typeof mcpHttpHandler>;
  before(() => {
    dirs = makeSessions(3, 1000);
    handler = mcpHttpHandler({
      runtime: { fs: detectFileSystem(), storage: { env: () => undefined, home: dirs.home, processCwd: BIG_PROJECT }, now: () => new Date() },
      scope: { agentDir: dirs.agentDir, cwd: BIG_PROJECT },
      all: true,
    });
  });
  after(() => rmSync(dirs.root, { recursive: true, force: true }));

  const post = (body: object) =>
    handler(new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify(body),
    }));

  it("answers initialize, tools/list and tools/call as JSON, each request on its own", async () => {
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    assert.equal(init.status, 200);
    assert.equal((await init.json()).result.serverInfo.name, "pi-session");
    const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    assert.equal((await list.json()).result.tools.length, 8);
    const call = await post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "session_info", arguments: { session: BIG_ID } } });
    const answer = await call.json();
    assert.equal(answer.result.structuredContent.result.id, BIG_ID);
    const bad = await post({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "session_info", arguments: {} } });
    assert.equal((await bad.json()).error.code, -32602);
  });
});
