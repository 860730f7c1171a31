/**
 * MCP over Streamable HTTP at `/mcp` on `serve`: behind the same token and Host checks as the
 * rest of the server, answering the same tools as `pi-session mcp --all`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { addSession, runCli, userEntry } from "../cli/_harness.ts";
import { type TestServer, testServer } from "./_server.ts";

const ID = "01a2b3c4-0000-7000-8000-000000000001";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

function rpc(id: number, method: string, params: object): RequestInit {
  return { method: "POST", headers: { ...HEADERS }, body: JSON.stringify({ jsonrpc: "2.0", id, method, params }) };
}

function withToken(init: RequestInit, token: string): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } };
}

describe("serve's /mcp", () => {
  let server: TestServer;
  before(async () => {
    server = await testServer({ token: "s3cret-token" });
    await addSession(server.fs, ID, [userEntry("u1", null, "hello mcp")]);
  });
  after(() => server.close());

  it("refuses a request without the token (401) and one for a foreign Host (421)", async () => {
    const init = rpc(1, "tools/list", {});
    assert.equal((await server.fetch("/mcp", init)).status, 401);
    const foreign = withToken({ ...init, headers: { ...HEADERS, Host: "evil.example" } }, "s3cret-token");
    assert.equal((await server.fetch("/mcp", foreign)).status, 421);
  });

  it("answers initialize, lists the tools and calls session_info with the token; the result is info's --json", async () => {
    const init = await server.fetch("/mcp", withToken(rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }), "s3cret-token"));
    assert.equal(init.status, 200);
    assert.equal((await init.json()).result.serverInfo.name, "pi-session");
    const list = await server.fetch("/mcp", withToken(rpc(2, "tools/list", {}), "s3cret-token"));
    const names = (await list.json()).result.tools.map((t: { name: string }) => t.name).sort();
    assert.ok(names.includes("session_info") && names.includes("search_sessions"), names.join(", "));
    const call = await server.fetch("/mcp", withToken(rpc(3, "tools/call", { name: "session_info", arguments: { session: ID } }), "s3cret-token"));
    const result = (await call.json()).result.structuredContent.result;
    const cli = await runCli(["info", ID, "--json"], { fs: server.fs });
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(result, JSON.parse(cli.stdout));
  });
});
