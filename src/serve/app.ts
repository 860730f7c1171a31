/**
 * The whole server as one runtime-agnostic `fetch` handler (Hono): safety checks first (Host,
 * token, CORS), then `/healthz`, MCP at `/mcp`, the JSON API, the event stream, `/metrics` and the web app.
 * Nothing here touches a socket or a runtime; `runtime/` serves it, tests call `fetch` directly.
 * @module
 */
import { Hono } from "hono";
import { routePath } from "hono/route";
import { apiRoutes } from "./api/routes.ts";
import { describeApiError, errorResponse } from "./http-error.ts";
import type { ServeState } from "./serve-state.ts";
import { BASE_HEADERS, hostAllowed, presentedToken, sameSecret, tokenCookie } from "./security.ts";
import { webRoutes } from "./web/routes.ts";

/** Builds the Hono app over a server's state. */
export function createApp(state: ServeState): Hono {
  const { config } = state;
  const app = new Hono();

  // Timing first, so refused requests are measured too.
  app.use("*", async (c, next) => {
    const started = performance.now();
    // Event streams stay open: only answers count as the server being busy.
    const path = c.req.path;
    const ended = path === "/api/events" || path === "/mcp" ? () => {} : state.answering();
    try {
      await next();
    } finally {
      ended();
    }
    for (const [name, value] of Object.entries(BASE_HEADERS)) c.res.headers.set(name, value);
    const route = c.res.status === 404 && routePath(c, -1) === "*" ? "(unmatched)" : routePath(c, -1);
    state.metrics.http.observe({ method: c.req.method, route, status: String(c.res.status) }, (performance.now() - started) / 1000);
  });

  app.use("*", async (c, next) => {
    // A Request built in-process (tests) has no Host header: its URL says the same.
    const host = c.req.header("host") ?? new URL(c.req.url).host;
    if (!hostAllowed(host, config.bindHost)) {
      return errorResponse(421, {
        code: "bad-host",
        message: `This server answers only to localhost, not to Host "${host}"`,
        hint: "Open it as http://127.0.0.1:PORT/ or http://localhost:PORT/ (a foreign name pointing at 127.0.0.1 is how DNS rebinding attacks start)",
      });
    }
    await next();
  });

  if (config.cors) {
    const origin = config.cors;
    app.use("/api/*", async (c, next) => {
      const allowed = c.req.header("origin") === origin;
      if (c.req.method === "OPTIONS") {
        if (!allowed) return c.body(null, 403);
        return c.body(null, 204, {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": "GET, HEAD",
          "Access-Control-Allow-Headers": "Authorization, Last-Event-ID",
          "Access-Control-Max-Age": "600",
          Vary: "Origin",
        });
      }
      await next();
      if (allowed) {
        c.res.headers.set("Access-Control-Allow-Origin", origin);
        c.res.headers.append("Vary", "Origin");
      }
    });
  }

  // Health before the token: a container's probe has none, and learns nothing but "up".
  app.get("/healthz", (c) => c.text("ok\n", 200, { "Cache-Control": "no-store" }));

  if (config.token) {
    const token = config.token;
    app.use("*", async (c, next) => {
      const url = new URL(c.req.url);
      const given = url.searchParams.get("token");
      if (given !== null) {
        if (!sameSecret(given, token)) return unauthorized();
        // One use: the token moves into a cookie and out of the address bar (and history).
        url.searchParams.delete("token");
        return new Response(null, { status: 303, headers: { Location: url.pathname + url.search + url.hash, "Set-Cookie": tokenCookie(token), "Cache-Control": "no-store" } });
      }
      const presented = presentedToken(c.req.header("authorization"), c.req.header("cookie"));
      if (presented === undefined || !sameSecret(presented, token)) return unauthorized();
      await next();
    });
  }

  // MCP's Streamable HTTP posts JSON-RPC; its tools only read, like everything else here.
  app.all("/mcp", (c) => state.mcp(c.req.raw));

  // Read-only: anything but reading is refused before routing.
  app.use("*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "OPTIONS") {
      return errorResponse(405, { code: "read-only", message: `${c.req.method} is not allowed: this server only reads sessions`, hint: "Use the pi-session CLI to change sessions" }, { Allow: "GET, HEAD" });
    }
    await next();
  });

  app.get("/api/events", (c) => state.streams.response(c.req.raw.signal));
  app.get("/metrics", async (c) => c.body(await state.metrics.text(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" }));
  apiRoutes(app, state);
  webRoutes(app, state);

  app.notFound((c) =>
    errorResponse(404, { code: "no-such-route", message: `Nothing at ${new URL(c.req.url).pathname}`, hint: "See /api/openapi.json for the API, or open / in a browser" })
  );
  app.onError((error) => {
    const { status, body, bug } = describeApiError(error);
    if (bug) state.log(`internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return errorResponse(status, body);
  });
  return app;
}

function unauthorized(): Response {
  return errorResponse(401, {
    code: "unauthorized",
    message: "A valid token is required",
    hint: "Send `Authorization: Bearer TOKEN`, or open the page once with ?token=TOKEN (it is then kept in a cookie)",
  }, { "WWW-Authenticate": 'Bearer realm="pi-session"' });
}
