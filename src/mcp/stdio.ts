/**
 * `pi-session mcp` over stdio: the server reads JSON-RPC on stdin and writes nothing but
 * JSON-RPC on stdout; its log goes to stderr. Resolves when the client closes the connection.
 * @module
 */
import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMcpServer, type McpServerOptions } from "./server.ts";

/** Serves `options` on stdin/stdout until stdin ends or the client closes. */
export async function serveStdio(options: McpServerOptions): Promise<void> {
  const server = createMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const closeQueries = server.onclose;
    server.onclose = () => {
      closeQueries?.();
      resolve();
    };
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  server.onerror = (error) => options.log?.(`pi-session mcp: ${error.message}`);
  await server.connect(transport);
  options.log?.(`pi-session mcp: serving ${options.all ? "every project's sessions" : `the sessions of ${options.scope.cwd ?? process.cwd()}`} on stdio`);
  await closed;
  await server.close().catch(() => {});
}
