/**
 * The MCP server over Streamable HTTP as one Web-standard handler (`Request` → `Response`), for
 * `pi-session serve` to mount at `/mcp` behind its own auth. Stateless: each request gets a fresh
 * server and transport (cheap: no IO until a tool runs) and answers as JSON; only the catalog
 * stays open between requests.
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { QueryRunner } from "./queries.ts";
import { createMcpServer, type McpServerOptions } from "./server.ts";

/**
 * A fetch handler serving `options` (its `runtime.fs` is what the tools read through: pass a
 * confined one to confine them).
 *
 * @example Mounted on a Hono app
 * ```ts
 * const mcp = mcpHttpHandler({ runtime, scope: { agentDir }, all: true });
 * app.all("/mcp", (c) => mcp(c.req.raw));
 * // at shutdown: await mcp.close();
 * ```
 */
export function mcpHttpHandler(options: McpServerOptions): ((request: Request) => Promise<Response>) & { close(): Promise<void> } {
  // One catalog for every request, open until `close`.
  const queries = options.queries ?? new QueryRunner(options.runtime, options.log);
  const handler = async (request: Request) => {
    const server = createMcpServer({ ...options, queries });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      // The answer is complete (JSON, not a stream): nothing outlives the request.
      await server.close();
    }
  };
  return Object.assign(handler, { close: () => (options.queries ? Promise.resolve() : queries.close()) });
}
