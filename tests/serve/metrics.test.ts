/**
 * `/metrics`: the Prometheus text format, and figures that add up to what the CLI prints:
 * tokens and cost over every project and model = `stats --all --json` totals (a fork counted
 * once), sessions = `list --all --json`, plus request durations and the catalog's refreshes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Histogram, prometheusText } from "../../src/serve/metrics/prometheus-text.ts";
import { addSession, jsonl, runCli, userEntry } from "../cli/_harness.ts";
import { assistant } from "../core/_builders.ts";
import { type TestServer, testServer } from "./_server.ts";

/** name{labels} value lines → samples. */
export function parseMetrics(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const samples = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v.replace(/\\(.)/g, (_m, c) => (c === "n" ? "\n" : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

const usage = (input: number, output: number, cost: number) => ({ input, output, cacheRead: 10, cacheWrite: 5, totalTokens: input + output + 15, cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost } });

describe("prometheusText()", () => {
  it("writes help, type and samples, escaping label values", () => {
    const text = prometheusText([{ name: "m", help: "Help\nline", type: "gauge", samples: [{ labels: { project: 'a"b\\c\nd' }, value: 1.5 }, { value: Infinity }] }]);
    assert.equal(text, '# HELP m Help\\nline\n# TYPE m gauge\nm{project="a\\"b\\\\c\\nd"} 1.5\nm +Inf\n');
  });

  it("Histogram keeps cumulative buckets, sum and count per label set", () => {
    const h = new Histogram([0.1, 1]);
    h.observe({ route: "/" }, 0.05);
    h.observe({ route: "/" }, 0.5);
    const text = prometheusText([{ name: "d", help: "D", type: "histogram", samples: h.samples() }]);
    assert.match(text, /d_bucket\{route="\/",le="0.1"\} 1\n/);
    assert.match(text, /d_bucket\{route="\/",le="1"\} 2\n/);
    assert.match(text, /d_bucket\{route="\/",le="\+Inf"\} 2\n/);
    assert.match(text, /d_count\{route="\/"\} 2\n/);
  });
});

describe("/metrics", () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
    const fs = server.fs;
    const a1 = assistant("a1", "u1", "one", { message: { role: "assistant", content: [{ type: "text", text: "one" }], provider: "anthropic", model: "claude-x", usage: usage(100, 20, 0.5), stopReason: "stop", timestamp: 1 } });
    const a2 = assistant("a2", "u1", "two", { message: { role: "assistant", content: [{ type: "text", text: "two" }], provider: "openai", model: "gpt-y", usage: usage(300, 40, 0.25), stopReason: "stop", timestamp: 2 } });
    const parent = await addSession(fs, "0d1e2f30-0000-4000-8000-000000000001", [userEntry("u1", null, "hi"), a1], { cwd: "/home/u/one" });
    // A fork: the parent's entries again (same ids and times), then one more turn.
    await addSession(fs, "0d1e2f30-0000-4000-8000-000000000002", [], {
      cwd: "/home/u/one",
      text: jsonl({ type: "session", version: 3, id: "0d1e2f30-0000-4000-8000-000000000002", timestamp: "2025-06-01T11:00:00.000Z", cwd: "/home/u/one", parentSession: parent }, userEntry("u1", null, "hi"), a1, a2),
    });
    await addSession(fs, "0d1e2f30-0000-4000-8000-000000000003", [userEntry("u1", null, "hi"), a2], { cwd: "/home/u/two" });
  });
  after(() => server.close());

  it("adds up to `stats --all --json`: tokens by type and cost, each entry once", async () => {
    const response = await server.fetch("/metrics");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("Content-Type") ?? "", /^text\/plain; version=0\.0\.4/);
    const samples = parseMetrics(await response.text());
    const stats = JSON.parse((await runCli(["stats", "--all", "--json"], { fs: server.fs })).stdout);
    const sum = (name: string, where: Record<string, string> = {}) =>
      samples.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
    assert.equal(sum("pi_session_tokens_total", { type: "input" }), stats.totals.input);
    assert.equal(sum("pi_session_tokens_total", { type: "output" }), stats.totals.output);
    assert.equal(sum("pi_session_tokens_total", { type: "cache_read" }), stats.totals.cacheRead);
    assert.equal(sum("pi_session_tokens_total", { type: "cache_write" }), stats.totals.cacheWrite);
    assert.ok(Math.abs(sum("pi_session_cost_dollars_total") - stats.totals.cost.total) < 1e-9);
    assert.ok(stats.totals.input < 100 + 300 + 100 + 300, "the fork's copy of a1 is not counted twice");
    assert.equal(sum("pi_session_tokens_total", { project: "/home/u/two", model: "openai/gpt-y", type: "input" }), 300);
    const list = JSON.parse((await runCli(["list", "--all", "--json"], { fs: server.fs })).stdout);
    assert.equal(sum("pi_session_sessions"), list.length);
    assert.equal(sum("pi_session_sessions", { project: "/home/u/one" }), 2);
  });

  it("times requests by route and status, and the catalog refreshes behind the figures", async () => {
    await server.fetch("/api/sessions");
    await server.fetch("/api/sessions/nothing-0");
    const samples = parseMetrics(await (await server.fetch("/metrics")).text());
    const count = (route: string, status: string) => samples.find((s) => s.name === "pi_session_http_request_duration_seconds_count" && s.labels.route === route && s.labels.status === status)?.value;
    assert.equal(count("/api/sessions", "200"), 1);
    assert.equal(count("/api/sessions/:ref", "404"), 1);
    assert.ok((samples.find((s) => s.name === "pi_session_catalog_refresh_duration_seconds_count")?.value ?? 0) >= 1);
    assert.ok(samples.some((s) => s.name === "pi_session_event_streams"));
  });

  it("says when the background warm-up after the start has ended", async () => {
    await server.state.searchWarmup.done;
    const samples = parseMetrics(await (await server.fetch("/metrics")).text());
    assert.equal(samples.find((s) => s.name === "pi_session_warmup_done")?.value, 1);
  });
});
