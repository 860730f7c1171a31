/**
 * The runtime's own server adapter (Node's @hono/node-server, Bun.serve or Deno.serve, picked as
 * the FileSystem adapter is): it serves the app on a real socket, finishes a request in flight
 * when closed, and `__healthcheck` (the container's probe) tells up from down. Runs on all three.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/serve/app.ts";
import { detectListen } from "../../src/serve/runtime/mod.ts";
import { runCli } from "../cli/_harness.ts";
import { testServer } from "./_server.ts";

describe("serve runtime adapter", () => {
  it("serves the app on a socket, finishes a request in flight on close, and __healthcheck sees up and down", async () => {
    const { state, close } = await testServer();
    const app = createApp(state);
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let started = () => {};
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const fetch = (request: Request) => {
      if (new URL(request.url).pathname !== "/slow") return app.fetch(request);
      started();
      return gate.then(() => new Response("finished"));
    };
    const server = await (await detectListen())(fetch, { hostname: "127.0.0.1", port: 0 });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      assert.equal(await (await globalThis.fetch(`${base}/healthz`)).text(), "ok\n");
      assert.equal((await runCli(["__healthcheck", "--port", String(server.port)])).code, 0);
      const slow = globalThis.fetch(`${base}/slow`).then((r) => r.text());
      await inFlight;
      const closed = server.close();
      open();
      assert.equal(await slow, "finished");
      await closed;
      const down = await runCli(["__healthcheck", "--port", String(server.port)]);
      assert.equal(down.code, 1);
      assert.match(down.stderr, /nothing answers/);
    } finally {
      await close();
    }
  });
});
