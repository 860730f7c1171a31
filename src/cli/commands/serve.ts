/**
 * `serve`: the sessions as a web app, a JSON API, live events and Prometheus metrics, on
 * loopback unless told otherwise (beyond loopback only with a token). Runs until Ctrl+C or
 * SIGTERM, then lets requests in flight finish and closes the event streams.
 * @module
 */
import { VERSION_LINE } from "../../version.ts";
import type { CommandSpec } from "../command.ts";
import { CliError } from "../errors.ts";

const DEFAULT_PORT = 8377;

/** The URL people open for a bound host and port. */
export function serverUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}/`;
}

export const serveCommand: CommandSpec = {
  name: "serve",
  summary: "Serve the sessions as a web app, a JSON API, live events and Prometheus metrics",
  options: [
    { flags: "--host <host>", description: "address to listen on; beyond loopback a token is required", default: "127.0.0.1" },
    { flags: "--port <port>", description: `port to listen on (0: any free one)`, default: String(DEFAULT_PORT) },
    { flags: "--token <token>", description: "require this token (Bearer header, or ?token= once, then a cookie); default $PI_SESSION_TOKEN" },
    { flags: "--cors <origin>", description: "let pages of this one origin call the API" },
    { flags: "--no-redact", description: "serve secrets as they are (they are masked by default)" },
    { flags: "--open", description: "open the web app in the browser" },
  ],
  notes: [
    "Pages: / (sessions), /sessions/<id>, /stats, /files. API: /api/sessions, /api/search, /api/stats, /api/files",
    "(described at /api/openapi.json; each body is the matching command's --json). Live: /api/events.",
    "Prometheus: /metrics. Health: /healthz. Read-only: nothing it does writes a session file.",
  ],
  examples: [
    "pi-session serve",
    "PI_SESSION_TOKEN=$(openssl rand -hex 16) pi-session serve --host 0.0.0.0",
    "curl -s 127.0.0.1:8377/api/sessions?limit=5 | jq '.[].id'",
  ],
  async run(ctx, _args, opts) {
    const [{ bindRefusal }, { openServeState }, { createApp }, runtime] = await Promise.all([
      import("../../serve/security.ts"),
      import("../../serve/serve-state.ts"),
      import("../../serve/app.ts"),
      import("../../serve/runtime/mod.ts"),
    ]);
    const host = String(opts.host);
    const port = Number(opts.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError("bad-option", `--port must be a whole number from 0 to 65535, not "${opts.port}"`, `Pass e.g. --port ${DEFAULT_PORT}`);
    const token = typeof opts.token === "string" ? opts.token : ctx.deps.storage.env("PI_SESSION_TOKEN") || undefined;
    const refusal = bindRefusal(host, token);
    if (refusal) throw new CliError("token-required", refusal, "Set PI_SESSION_TOKEN (or pass --token) to a long random secret, or leave --host at 127.0.0.1");

    const state = await openServeState({
      fs: ctx.fs,
      storage: ctx.deps.storage,
      agentDir: ctx.options.agentDir,
      sessionDir: ctx.options.sessionDir,
      bindHost: host,
      token,
      cors: typeof opts.cors === "string" ? opts.cors : undefined,
      redact: opts.redact !== false,
      version: VERSION_LINE,
      now: ctx.deps.now,
      log: (line) => ctx.deps.stderr(line + "\n"),
    });
    const app = createApp(state);
    let server;
    try {
      server = await (await runtime.detectListen())(app.fetch, { hostname: host, port });
    } catch (error) {
      await state.close();
      const why = (error as { code?: string }).code === "EADDRINUSE" || /in use/i.test(String(error)) ? "the address is in use" : String((error as Error).message ?? error);
      throw new CliError("cannot-listen", `Cannot listen on ${host}:${port}: ${why}`, "Pick another --port, or stop what listens there");
    }
    const url = serverUrl(host, server.port);
    ctx.out(url);
    ctx.note(`pi-session: serving ${token ? "with a token (open the page once with ?token=…)" : "on loopback only"}; secrets ${opts.redact === false ? "NOT masked" : "masked"}; Ctrl+C stops`);
    if (opts.open) void ctx.deps.exec?.(await runtime.browserOpener(), [url]);
    const signal = await runtime.shutdownSignal();
    ctx.note(`pi-session: ${signal}: finishing requests in flight`);
    state.streams.closeAll();
    await server.close();
    await state.close();
    return 0;
  },
};
