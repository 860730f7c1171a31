/**
 * Bench case script for `pi-session mcp`: the compiled binary started as an MCP server over
 * stdio and spoken to with plain JSON-RPC lines (no client library in the timed section).
 *
 *   node --import tsx scripts/bench/mcp.ts --impl init    -- BINARY SERVER-ARGS...
 *   node --import tsx scripts/bench/mcp.ts --impl search  --query WORD --calls 10 -- BINARY SERVER-ARGS...
 *   node --import tsx scripts/bench/mcp.ts --impl context --session REF [--calls 3] -- BINARY SERVER-ARGS...
 *
 * init: from spawn to the `initialize` answer. search: after initialize and one untimed call (the
 * catalog warm), the mean of `--calls` search_sessions calls. context: the server's first
 * get_context call on the session REF after initialize, or with `--calls`, after one untimed call,
 * the mean of that many. The digest is of the last result's structuredContent.
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { digest, measure, parseCaseArgs } from "./_harness.ts";

const args = parseCaseArgs();
const [binary, ...serverArgs] = args.positional;
if (!binary) throw new Error("usage: mcp.ts --impl init|search|context [--query W] [--session REF] -- BINARY ARGS...");

/** A started server: `request` sends one JSON-RPC request and resolves with its result. */
function start(): { request(method: string, params: object): Promise<Record<string, unknown>>; stop(): void } {
  const child = spawn(binary, serverArgs, { stdio: ["pipe", "pipe", "ignore"] });
  let buffer = "";
  let nextId = 1;
  const waiting = new Map<number, (value: Record<string, unknown>) => void>();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    let at: number;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      if (message.error) throw new Error(`server error: ${JSON.stringify(message.error)}`);
      waiting.get(message.id)?.(message.result);
      waiting.delete(message.id);
    }
  });
  return {
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
      });
    },
    stop() {
      child.stdin.end();
    },
  };
}

const INITIALIZE = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

if (args.impl === "init") {
  let server: ReturnType<typeof start> | undefined;
  await measure(args, async () => {
    server = start();
    return await server.request("initialize", INITIALIZE);
  }, (result) => String((result.serverInfo as { name: string }).name));
  server!.stop();
} else if (args.impl === "search" || args.impl === "context") {
  const server = start();
  await server.request("initialize", INITIALIZE);
  const call = (name: string, toolArgs: object) => server.request("tools/call", { name, arguments: toolArgs });
  let last: Record<string, unknown> = {};
  if (args.impl === "search") {
    const query = args.flags.get("query") ?? "flaky";
    const calls = Number(args.flags.get("calls") ?? 10);
    await call("search_sessions", { query });
    const started = performance.now();
    for (let i = 0; i < calls; i++) last = await call("search_sessions", { query });
    const ms = (performance.now() - started) / calls;
    console.log(`BENCH_RESULT ${JSON.stringify({ ms, ...(args.verify ? { check: digest(last.structuredContent) } : {}) })}`);
  } else {
    const session = args.flags.get("session");
    if (!session) throw new Error("--session REF is needed");
    // --calls N (after one untimed call): the mean of N calls to a running server; without it, the server's first call.
    const calls = args.flags.has("calls") ? Number(args.flags.get("calls")) : 0;
    if (calls === 0) await measure(args, () => call("get_context", { session }), (result) => digest(result.structuredContent));
    else {
      await call("get_context", { session });
      const started = performance.now();
      for (let i = 0; i < calls; i++) last = await call("get_context", { session });
      const ms = (performance.now() - started) / calls;
      console.log(`BENCH_RESULT ${JSON.stringify({ ms, ...(args.verify ? { check: digest(last.structuredContent) } : {}) })}`);
    }
  }
  server.stop();
} else {
  throw new Error(`unknown --impl ${args.impl}`);
}
process.exitCode = 0;
