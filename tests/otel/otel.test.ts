/**
 * `otel` end to end against a loopback OTLP/HTTP receiver that decodes what arrives: the span
 * tree, the GenAI attributes, ids stable across runs and encodings, token sums equal to
 * `stats --all --json` on a corpus with forks and clones, and incremental runs.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { runCli } from "../cli/_harness.ts";
import { decodeRequest, type ReceivedSpan, startReceiver } from "./_receiver.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-otel-"));
after(() => rmSync(work, { recursive: true, force: true }));
const agentDir = join(work, "agent");
const files = await generateSessions({ dir: agentDir, count: 120, seed: 20261201 });

const cli = (argv: string[], env: Record<string, string> = {}) =>
  runCli(argv, { fs: detectFileSystem(), env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "cache"), ...env }, home: work, processCwd: work });

const num = (value: unknown) => value as number;
const ROOT = "invoke_agent pi";

/** Runs `otel --all` to a fresh receiver; its accepted spans. */
async function exportAll(extra: string[] = [], env: Record<string, string> = {}) {
  const receiver = await startReceiver();
  try {
    const run = await cli(["otel", "--all", "--endpoint", receiver.url, ...extra], env);
    return { run, spans: receiver.accepted(), requests: receiver.requests };
  } finally {
    await receiver.close();
  }
}

const first = await exportAll(["--headers", "x-team=agents,authorization=Bearer%20t0k"], { OTEL_SERVICE_NAME: "pi-ci", OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,host.name=runner-1" });

test("otel --all sends one trace per session: a root invoke_agent span and chat, tool, compaction spans under it", () => {
  assert.equal(first.run.code, 0, first.run.stderr);
  assert.match(first.run.stdout, /^Sent [\d,]+ spans of 1\d\d sessions to http:\/\/127\.0\.0\.1:\d+\/v1\/traces in \d+ requests?\n$/);
  const byTrace = new Map<string, ReceivedSpan[]>();
  for (const s of first.spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
  for (const [traceId, spans] of byTrace) {
    const roots = spans.filter((s) => s.parentSpanId === "");
    assert.equal(roots.length, 1, `trace ${traceId} has one root`);
    assert.equal(roots[0].name, ROOT);
    assert.equal(roots[0].kind, 1);
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) if (s !== roots[0]) assert.ok(ids.has(s.parentSpanId), `${s.name} has its parent in its trace`);
    for (const s of spans) assert.ok(s.startNs <= s.endNs, `${s.name} starts before it ends`);
  }
  assert.ok(byTrace.size >= 100);
  const names = new Set(first.spans.map((s) => s.name.split(" ")[0]));
  for (const name of ["invoke_agent", "chat", "execute_tool", "pi.compaction", "pi.branch_summary"]) assert.ok(names.has(name), name);
});

test("otel spans carry the GenAI attributes of semantic conventions 1.45, and no content by default", () => {
  for (const s of first.spans) {
    const a = s.attributes;
    assert.equal(a["gen_ai.input.messages"], undefined);
    assert.equal(a["gen_ai.output.messages"], undefined);
    if (s.name === ROOT) {
      assert.equal(a["gen_ai.operation.name"], "invoke_agent");
      assert.equal(a["gen_ai.agent.name"], "pi");
      assert.equal(typeof a["gen_ai.conversation.id"], "string");
      assert.equal(a["session.id"], a["gen_ai.conversation.id"]);
      assert.equal(typeof a["pi.session.cwd"], "string");
      assert.equal(typeof a["pi.entry_count"], "number");
    } else if (s.name.startsWith("chat ")) {
      assert.equal(s.kind, 3, "chat spans are CLIENT");
      assert.equal(a["gen_ai.operation.name"], "chat");
      for (const key of ["gen_ai.provider.name", "gen_ai.request.model", "gen_ai.response.model"]) assert.equal(typeof a[key], "string", key);
      assert.equal(s.name, `chat ${a["gen_ai.request.model"]}`);
      if (a["pi.entry.type"] === "message") assert.ok(Array.isArray(a["gen_ai.response.finish_reasons"]));
      const [input, read, write] = [num(a["gen_ai.usage.input_tokens"]), num(a["gen_ai.usage.cache_read.input_tokens"]), num(a["gen_ai.usage.cache_creation.input_tokens"])];
      assert.ok(input >= read + write, "input tokens include cached input");
      assert.equal(typeof a["gen_ai.usage.output_tokens"], "number");
      assert.equal(typeof a["pi.cost.total"], "number");
      if (a["error.type"] !== undefined) assert.equal(s.status.code, 2);
    } else if (s.name.startsWith("execute_tool ")) {
      assert.equal(s.kind, 1);
      assert.equal(a["gen_ai.operation.name"], "execute_tool");
      assert.equal(s.name, `execute_tool ${a["gen_ai.tool.name"]}`);
      assert.equal(typeof a["gen_ai.tool.call.id"], "string");
    }
    assert.deepEqual(s.resource, { "deployment.environment": "ci", "host.name": "runner-1", "service.name": "pi-ci" });
    assert.equal(s.scope, "pi-session");
  }
  const request = first.requests[0];
  assert.equal(request.contentEncoding, "gzip");
  assert.equal(request.contentType, "application/x-protobuf");
  assert.equal(request.headers["x-team"], "agents");
  assert.equal(request.headers["authorization"], "Bearer t0k");
});

test("otel token and cost sums equal stats --all --json totals (forks and clones counted once)", async () => {
  const stats = await cli(["stats", "--all", "--json"]);
  const totals = JSON.parse(stats.stdout).totals;
  const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  for (const { attributes: a } of first.spans) {
    if (a["gen_ai.usage.input_tokens"] === undefined) continue;
    sum.cacheRead += num(a["gen_ai.usage.cache_read.input_tokens"]);
    sum.cacheWrite += num(a["gen_ai.usage.cache_creation.input_tokens"]);
    sum.input += num(a["gen_ai.usage.input_tokens"]) - num(a["gen_ai.usage.cache_read.input_tokens"]) - num(a["gen_ai.usage.cache_creation.input_tokens"]);
    sum.output += num(a["gen_ai.usage.output_tokens"]);
    sum.cost += num(a["pi.cost.total"]);
  }
  assert.ok(files.some((f) => readFileSync(f, "utf8").includes('"parentSession"')), "the corpus has forks or clones");
  assert.deepEqual([sum.input, sum.output, sum.cacheRead, sum.cacheWrite], [totals.input, totals.output, totals.cacheRead, totals.cacheWrite]);
  assert.ok(Math.abs(sum.cost - totals.cost.total) < 1e-6, `${sum.cost} vs ${totals.cost.total}`);
});

const key = (s: ReceivedSpan) => `${s.traceId}/${s.spanId}/${s.parentSpanId}/${s.name}/${s.startNs}/${s.endNs}`;

test("otel --protocol http/json sends the same spans with the same ids as protobuf", async () => {
  const json = await exportAll(["--protocol", "http/json"]);
  assert.equal(json.run.code, 0, json.run.stderr);
  assert.equal(json.requests[0].contentType, "application/json");
  assert.deepEqual(json.spans.map(key).sort(), first.spans.map(key).sort());
});

test("otel --compression none (or OTEL_EXPORTER_OTLP_COMPRESSION=none) sends bodies as they are, the same spans", async () => {
  for (const [extra, env] of [[["--compression", "none"], {}], [[], { OTEL_EXPORTER_OTLP_COMPRESSION: "none" }]] as const) {
    const plain = await exportAll([...extra], { ...env });
    assert.equal(plain.run.code, 0, plain.run.stderr);
    assert.ok(plain.requests.length > 0);
    for (const request of plain.requests) assert.equal(request.contentEncoding, "");
    assert.deepEqual(plain.spans.map(key).sort(), first.spans.map(key).sort());
  }
});

test("otel --out writes one OTLP/JSON ExportTraceServiceRequest per line, the same spans", async () => {
  const out = join(work, "traces.jsonl");
  const run = await cli(["otel", "--all", "--out", out]);
  assert.equal(run.code, 0, run.stderr);
  const lines = readFileSync(out, "utf8").trimEnd().split("\n");
  const spans = lines.flatMap((line) => decodeRequest(new TextEncoder().encode(line), "application/json"));
  assert.deepEqual(spans.map(key).sort(), first.spans.map(key).sort());
});

test("otel with worker threads sends the same spans, attributes and ids as without", { timeout: 60_000 }, async () => {
  const full = (s: ReceivedSpan) => JSON.stringify([key(s), s.kind, s.status, Object.entries(s.attributes).sort()]);
  const alone = await exportAll(["--resend"], { PI_SESSION_OTEL_WORKERS: "0" });
  const pooled = await exportAll(["--resend"], { PI_SESSION_OTEL_WORKERS: "2" });
  assert.equal(pooled.run.code, 0, pooled.run.stderr);
  const words = (stdout: string) => stdout.replace(/:\d+\//, ":PORT/").replace(/\d+ requests?/, "N requests");
  assert.equal(words(pooled.run.stdout), words(alone.run.stdout));
  assert.deepEqual(pooled.spans.map(full).sort(), alone.spans.map(full).sort());
  assert.equal(pooled.spans.length, first.spans.length);
});

test("otel saves what was accepted during a run as often as PI_SESSION_OTEL_SAVE_MS says, and at its end", { timeout: 60_000 }, async () => {
  /** Sessions the store on disk holds as each request arrives, then after the run. */
  const recordsSeen = async (saveMs: string) => {
    const cache = mkdtempSync(join(work, "save-"));
    const store = join(cache, "pi-session", "otel-sent-v1.json");
    const held = () => {
      if (!existsSync(store)) return 0;
      const receivers = Object.values(JSON.parse(readFileSync(store, "utf8")).receivers) as object[];
      return receivers.reduce((n, records) => n + Object.keys(records).length, 0);
    };
    const during: number[] = [];
    const receiver = await startReceiver(() => {
      during.push(held());
      return { status: 200 };
    });
    try {
      const run = await cli(["otel", "--all", "--endpoint", receiver.url], { XDG_CACHE_HOME: cache, PI_SESSION_OTEL_SAVE_MS: saveMs });
      assert.equal(run.code, 0, run.stderr);
      return { during, after: held() };
    } finally {
      await receiver.close();
    }
  };
  const sessions = new Set(first.spans.map((s) => s.traceId)).size;
  const often = await recordsSeen("0");
  assert.ok(often.during.length > 2, `a run of several requests (${often.during.length})`);
  // Saved after each accepted request: none before the first, never fewer from one request to the
  // next (a request may end no session: a long one's spans span several), and some before the last.
  assert.equal(often.during[0], 0);
  for (let i = 1; i < often.during.length; i++) assert.ok(often.during[i] >= often.during[i - 1], `request ${i}: ${often.during.join(",")}`);
  assert.ok(often.during.at(-1)! > 0, `saved during the run: ${often.during.join(",")}`);
  assert.equal(often.after, sessions);
  const never = await recordsSeen("3600000");
  assert.deepEqual(never.during, never.during.map(() => 0), "nothing saved before the end");
  assert.equal(never.after, sessions);
});

test("otel --dry-run counts what would be sent and sends nothing", async () => {
  const receiver = await startReceiver();
  try {
    const run = await cli(["otel", "--all", "--dry-run", "--endpoint", receiver.url]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^Would send ${first.spans.length.toLocaleString("en-US")} spans`));
    assert.equal(receiver.requests.length, 0);
  } finally {
    await receiver.close();
  }
});

test("otel sends nothing the receiver accepted before, --resend sends it again with the same ids, an append sends only the new entry", { timeout: 60_000 }, async () => {
  const receiver = await startReceiver();
  try {
    const once = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(once.code, 0, once.stderr);
    const sent = receiver.requests.length;
    const again = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /^Nothing new to send to /);
    assert.equal(receiver.requests.length, sent, "the second run sends no request");

    const resend = await cli(["otel", "--all", "--resend", "--endpoint", receiver.url, "--json"]);
    assert.equal(resend.code, 0, resend.stderr);
    const resent = receiver.requests.slice(sent).flatMap((r) => r.spans);
    assert.deepEqual(resent.map(key).sort(), first.spans.map(key).sort());

    // A plain session (no parent): append an assistant reply to its last entry.
    const file = files.find((f) => !readFileSync(f, "utf8").includes('"parentSession"') && readFileSync(f, "utf8").endsWith("\n"))!;
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const last = JSON.parse(lines.at(-1)!);
    const reply = {
      type: "message",
      id: "0a0b0c0d",
      parentId: last.id,
      timestamp: "2027-01-01T00:00:01.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "done" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-x",
        usage: { input: 10, output: 5, cacheRead: 100, cacheWrite: 20, totalTokens: 135, cost: { input: 0.1, output: 0.2, cacheRead: 0.01, cacheWrite: 0.02, total: 0.33 } },
        stopReason: "stop",
        timestamp: 1798761601000,
      },
    };
    const before = receiver.requests.length;
    // A torn line first (a session being written): nothing of it is sent.
    const text = JSON.stringify(reply) + "\n";
    appendFileSync(file, text.slice(0, 40));
    const torn = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(torn.code, 0, torn.stderr);
    assert.equal(receiver.requests.length, before);
    appendFileSync(file, text.slice(40));
    const appended = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(appended.code, 0, appended.stderr);
    const spans = receiver.requests.slice(before).flatMap((r) => r.spans);
    assert.equal(spans.length, 1);
    assert.equal(spans[0].name, "chat claude-x");
    assert.equal(spans[0].attributes["pi.entry.id"], "0a0b0c0d");
    assert.equal(spans[0].attributes["gen_ai.usage.input_tokens"], 130);
    assert.equal(spans[0].traceId, first.spans.find((s) => s.name === ROOT && file.includes(String(s.attributes["session.id"])))!.traceId);
  } finally {
    await receiver.close();
  }
});
