/**
 * `otel` delivery against a loopback receiver that misbehaves on cue (503, 429, 400, a dropped
 * connection, no answer, no receiver at all, a partial success), and the mapping of one
 * hand-written session in detail (span tree, timing, errors, content and its masking).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectFileSystem } from "../../src/io/mod.ts";
import { runCli } from "../cli/_harness.ts";
import { partialSuccessBody, type Reply, startReceiver } from "./_receiver.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-otel-faults-"));
after(() => rmSync(work, { recursive: true, force: true }));

const SECRET = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z";
const usage = (input: number, output: number) => ({ input, output, cacheRead: 7, cacheWrite: 3, totalTokens: input + output + 10, cost: { input: 0.01, output: 0.02, cacheRead: 0.001, cacheWrite: 0.002, total: 0.033 } });
const LINES = [
  { type: "session", version: 3, id: "0190aaaa-0000-7000-8000-000000000001", timestamp: "2026-01-01T10:00:00.000Z", cwd: "/w" },
  { type: "message", id: "e0000001", parentId: null, timestamp: "2026-01-01T10:00:01.000Z", message: { role: "user", content: `use ${SECRET}`, timestamp: 1767261601000 } },
  {
    type: "message", id: "e0000002", parentId: "e0000001", timestamp: "2026-01-01T10:00:04.500Z",
    message: { role: "assistant", content: [{ type: "text", text: "running" }, { type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: usage(100, 20), stopReason: "toolUse", timestamp: 1767261602000 },
  },
  { type: "message", id: "e0000003", parentId: "e0000002", timestamp: "2026-01-01T10:00:06.000Z", message: { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: "boom" }], isError: true, timestamp: 1767261606000 } },
  {
    type: "message", id: "e0000004", parentId: "e0000003", timestamp: "2026-01-01T10:00:09.000Z",
    message: { role: "assistant", content: [], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", responseModel: "claude-sonnet-4-5-20250929", usage: usage(50, 0), stopReason: "error", errorMessage: "overloaded", timestamp: 1767261607000 },
  },
  { type: "compaction", id: "e0000005", parentId: "e0000004", timestamp: "2026-01-01T10:00:12.000Z", summary: "s", firstKeptEntryId: "e0000004", tokensBefore: 1234, usage: usage(400, 60) },
];

/** A fresh agent dir with the one session; returns the CLI runner over it. */
function setup(name: string) {
  const agentDir = join(work, name, "agent");
  const dir = join(agentDir, "sessions", "--w--");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "2026-01-01T10-00-00-000Z_0190aaaa-0000-7000-8000-000000000001.jsonl"), LINES.map((l) => JSON.stringify(l) + "\n").join(""));
  return (argv: string[], env: Record<string, string> = {}) =>
    runCli(argv, {
      fs: detectFileSystem(),
      env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, name, "cache"), PI_SESSION_OTEL_BACKOFF_MS: "1", ...env },
      home: join(work, name),
      processCwd: join(work, name),
    });
}

/** Runs `argv` against a receiver following `script`; the run, and the receiver (closed). */
async function against(cli: ReturnType<typeof setup>, script: (n: number) => Reply, argv: string[] = []) {
  const receiver = await startReceiver(script);
  try {
    return { run: await cli(["otel", "--all", "--endpoint", receiver.url, ...argv]), receiver };
  } finally {
    await receiver.close();
  }
}

test("otel maps one session: tree, timing from the entry that started each span, errors, usage", async () => {
  const { run, receiver } = await against(setup("map"), () => ({ status: 200 }));
  assert.equal(run.code, 0, run.stderr);
  const spans = receiver.accepted();
  const by = (name: string) => spans.filter((s) => s.name === name);
  assert.deepEqual(spans.map((s) => s.name).sort(), ["chat claude-sonnet-4-5", "chat claude-sonnet-4-5", "execute_tool bash", "invoke_agent pi", "pi.compaction"]);
  const [root] = by("invoke_agent pi");
  const [chat, failed] = by("chat claude-sonnet-4-5").sort((a, b) => Number(a.startNs - b.startNs));
  const [tool] = by("execute_tool bash");
  const ms = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
  assert.deepEqual([root.startNs, root.endNs], [ms("2026-01-01T10:00:00.000Z"), ms("2026-01-01T10:00:12.000Z")]);
  assert.deepEqual([chat.startNs, chat.endNs], [ms("2026-01-01T10:00:01.000Z"), ms("2026-01-01T10:00:04.500Z")]);
  assert.deepEqual([tool.startNs, tool.endNs], [ms("2026-01-01T10:00:04.500Z"), ms("2026-01-01T10:00:06.000Z")]);
  assert.equal(chat.parentSpanId, root.spanId);
  assert.equal(tool.parentSpanId, chat.spanId, "a tool span sits under the chat span that called it");
  assert.deepEqual(chat.attributes["gen_ai.response.finish_reasons"], ["tool_call"]);
  assert.equal(chat.attributes["gen_ai.usage.input_tokens"], 110);
  assert.equal(chat.attributes["gen_ai.usage.cache_read.input_tokens"], 7);
  assert.equal(chat.attributes["gen_ai.usage.cache_creation.input_tokens"], 3);
  assert.equal(chat.attributes["pi.cost.total"], 0.033);
  assert.equal(tool.attributes["gen_ai.tool.call.id"], "call_1");
  assert.equal(tool.attributes["error.type"], "tool_error");
  assert.equal(failed.attributes["error.type"], "error");
  assert.equal(failed.attributes["gen_ai.response.model"], "claude-sonnet-4-5-20250929");
  assert.deepEqual(failed.status, { code: 2, message: "overloaded" });
  const [compaction] = by("pi.compaction");
  assert.equal(compaction.attributes["gen_ai.usage.input_tokens"], 410);
  assert.equal(compaction.attributes["pi.compaction.tokens_before"], 1234);
  assert.equal(root.attributes["gen_ai.conversation.id"], "0190aaaa-0000-7000-8000-000000000001");
  assert.equal(root.attributes["pi.session.cwd"], "/w");
  assert.ok(!JSON.stringify(spans.map((s) => s.attributes)).includes("use "), "no content without --content");
});

test("otel --content sends the messages with secrets masked", async () => {
  const { run, receiver } = await against(setup("content"), () => ({ status: 200 }), ["--content"]);
  assert.equal(run.code, 0, run.stderr);
  const chat = receiver.accepted().find((s) => s.attributes["pi.entry.id"] === "e0000002")!;
  const input = JSON.parse(String(chat.attributes["gen_ai.input.messages"]));
  const output = JSON.parse(String(chat.attributes["gen_ai.output.messages"]));
  assert.equal(input[0].role, "user");
  assert.match(input[0].parts[0].content, /^use sk-proj-.*redacted/);
  assert.ok(!JSON.stringify(receiver.requests.map((r) => r.spans.map((s) => s.attributes))).includes(SECRET));
  assert.deepEqual(output[0].parts[1], { type: "tool_call", id: "call_1", name: "bash", arguments: { command: "ls" } });
});

test("otel retries a 503 and a 429 (Retry-After honoured), then the data is marked sent", async () => {
  const cli = setup("retry");
  const receiver = await startReceiver((n) => n === 0 ? { status: 503 } : n === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 });
  try {
    const run = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(receiver.requests.length, 3);
    assert.match(run.stderr, /HTTP 503.*retry 1 in 0 s/);
    assert.match(run.stderr, /HTTP 429.*retry 2 in 1 s/);
    assert.equal(receiver.accepted().length, 5);
    const again = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(again.code, 0);
    assert.equal(receiver.requests.length, 3, "nothing sent twice");
  } finally {
    await receiver.close();
  }
});

test("otel reports a 400, does not retry it and does not mark its sessions sent", async () => {
  const cli = setup("refused");
  const receiver = await startReceiver((n) => n === 0 ? { status: 400, body: "bad payload" } : { status: 200 });
  try {
    const run = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /refused a request: HTTP 400 .*bad payload \(after 1 attempt\)/);
    assert.equal(receiver.requests.length, 1);
    const again = await cli(["otel", "--all", "--endpoint", receiver.url]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(receiver.accepted().length, 5, "the refused session goes out on the next run");
  } finally {
    await receiver.close();
  }
});

test("otel retries a connection closed mid-request", async () => {
  const { run, receiver } = await against(setup("closed"), (n) => n === 0 ? "close" : { status: 200 });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(receiver.requests.length, 2);
  assert.equal(receiver.accepted().length, 5);
});

test("otel exits 3 with a clear error when no receiver listens", async () => {
  const cli = setup("absent");
  const receiver = await startReceiver();
  await receiver.close();
  const run = await cli(["otel", "--all", "--endpoint", receiver.url]);
  assert.equal(run.code, 3);
  assert.match(run.stderr, new RegExp(`cannot reach the OTLP receiver at ${receiver.url}/v1/traces: .*\\(after 5 attempts\\)\\nhint: .*collector`));
  const dry = await cli(["otel", "--all", "--endpoint", receiver.url, "--dry-run"]);
  assert.match(dry.stdout, /^Would send 5 spans of 1 session/, "nothing was marked sent");
});

test("otel gives up on a receiver that does not answer within --timeout", async () => {
  const { run, receiver } = await against(setup("slow"), () => "hang", ["--timeout", "200"]);
  assert.equal(run.code, 3);
  assert.match(run.stderr, /no answer within 200 ms \(after 5 attempts\)/);
  assert.equal(receiver.requests.length, 5);
});

test("otel reports a partial success", async () => {
  const { run } = await against(setup("partial"), () => ({ status: 200, headers: { "content-type": "application/x-protobuf" }, body: partialSuccessBody(2, "span too old") }));
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /the receiver rejected 2 spans: span too old/);
});

test("otel refuses an unknown protocol from the environment (exit 2)", async () => {
  const run = await setup("grpc")(["otel", "--all"], { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported/);
});

test("otel --since leaves out older entries", async () => {
  const run = await setup("since")(["otel", "--all", "--since", "2026-01-01T10:00:05Z", "--dry-run", "--json", "--endpoint", "http://127.0.0.1:9"]);
  assert.equal(run.code, 0, run.stderr);
  // The tool result, the failed reply and the compaction, and the root span (the session ran until 10:00:12).
  assert.equal(JSON.parse(run.stdout).spans, 4);
});

test("otel without --all in a flat session folder sends only this directory's sessions", async () => {
  const flat = join(work, "flat", "sessions");
  mkdirSync(flat, { recursive: true });
  const text = LINES.map((l) => JSON.stringify(l) + "\n").join("");
  writeFileSync(join(flat, "a.jsonl"), text);
  writeFileSync(join(flat, "b.jsonl"), text.replace('"cwd":"/w"', '"cwd":"/elsewhere"').replaceAll("0190aaaa-0000-7000-8000-000000000001", "0190bbbb-0000-7000-8000-000000000002"));
  const run = (argv: string[]) =>
    runCli(argv, { fs: detectFileSystem(), env: { PI_CODING_AGENT_SESSION_DIR: flat, XDG_CACHE_HOME: join(work, "flat", "cache") }, home: join(work, "flat"), processCwd: "/w" });
  assert.equal(JSON.parse((await run(["otel", "--dry-run", "--json"])).stdout).sessions, 1);
  assert.equal(JSON.parse((await run(["otel", "--all", "--dry-run", "--json"])).stdout).sessions, 2);
});
