/**
 * A real Prometheus (Debian's package; `.ci/run` installs it) started on loopback with a
 * generated config scrapes the server's /metrics; its HTTP API's sums must equal what
 * `stats --all --json` and `list --all --json` print for the same sessions. Node only (it
 * drives the prometheus binary); skipped, saying so, where the binary is missing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { nodeFileSystem } from "../../src/io/node.ts";
import { listenNode } from "../../src/serve/runtime/node.ts";
import type { RunningServer } from "../../src/serve/runtime/listener.ts";
import { createApp } from "../../src/serve/app.ts";
import { openServeState, type ServeState } from "../../src/serve/serve-state.ts";
import { runCli } from "../cli/_harness.ts";
import { fixtureText, SESSION_ID } from "../export/_fixture.ts";

const PROMETHEUS = "/usr/bin/prometheus";
const isNode = !("Deno" in globalThis) && !("Bun" in globalThis);
const skip = !isNode ? "runs under Node (it drives the prometheus binary)" : !existsSync(PROMETHEUS) ? `${PROMETHEUS} is missing: apt-get install prometheus (.ci/run does)` : false;
const root = new URL("../..", import.meta.url).pathname;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("a real Prometheus scraping /metrics", { skip }, () => {
  let work = "";
  let state: ServeState;
  let server: RunningServer;
  let prometheus: ChildProcess;
  let api = "";
  const env = () => ({ HOME: join(work, "home"), XDG_CACHE_HOME: join(work, "cache") });

  before(async () => {
    work = mkdtempSync(join(tmpdir(), "pi-session-prometheus-"));
    const agent = join(work, "agent");
    const { cpSync } = await import("node:fs");
    cpSync(join(root, "examples/agent"), agent, { recursive: true });
    mkdirSync(join(agent, "sessions/--home-u-proj--"), { recursive: true });
    writeFileSync(join(agent, `sessions/--home-u-proj--/2025-06-01T10-00-00-000Z_${SESSION_ID}.jsonl`), fixtureText());
    const vars: Record<string, string> = env();
    state = await openServeState({ fs: nodeFileSystem, storage: { env: (n) => vars[n], home: vars.HOME, processCwd: work }, agentDir: agent, bindHost: "127.0.0.1", redact: true, version: "test" });
    server = await listenNode(createApp(state).fetch, { hostname: "127.0.0.1", port: 0 });
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    writeFileSync(join(work, "prometheus.yml"), [
      "global:",
      "  scrape_interval: 1s",
      "scrape_configs:",
      "  - job_name: pi-session",
      "    static_configs:",
      `      - targets: ["127.0.0.1:${server.port}"]`,
      "",
    ].join("\n"));
    prometheus = spawn(PROMETHEUS, [`--config.file=${join(work, "prometheus.yml")}`, `--storage.tsdb.path=${join(work, "data")}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: "ignore" });
  });

  after(async () => {
    prometheus?.kill("SIGTERM");
    await server?.close();
    await state?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** The value of an instant query, once Prometheus has scraped us (it polls until then). */
  async function query(expr: string): Promise<number> {
    for (;;) {
      try {
        const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expr)}`);
        const body = await response.json() as { data?: { result: { value: [number, string] }[] } };
        const result = body.data?.result ?? [];
        if (result.length > 0) return Number(result[0].value[1]);
      } catch {
        // Not up yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it("scrapes totals equal to `stats --all --json` and session counts equal to `list --all --json`", async () => {
    const cli = async (argv: string[]) => JSON.parse((await runCli([...argv, "--json", "--agent-dir", join(work, "agent")], { fs: nodeFileSystem, env: env(), home: env().HOME, processCwd: work })).stdout);
    const stats = await cli(["stats", "--all"]);
    const list = await cli(["list", "--all"]);
    assert.equal(await query('up{job="pi-session"} == 1'), 1);
    assert.equal(await query('sum(pi_session_tokens_total{type="input"})'), stats.totals.input);
    assert.equal(await query('sum(pi_session_tokens_total{type="output"})'), stats.totals.output);
    assert.equal(await query('sum(pi_session_tokens_total{type="cache_read"})'), stats.totals.cacheRead);
    assert.equal(await query('sum(pi_session_tokens_total{type="cache_write"})'), stats.totals.cacheWrite);
    assert.ok(Math.abs(await query("sum(pi_session_cost_dollars_total)") - stats.totals.cost.total) < 1e-9);
    assert.equal(await query("sum(pi_session_sessions)"), list.length);
    assert.ok(await query("sum(pi_session_http_request_duration_seconds_count)") >= 1);
  });
});
