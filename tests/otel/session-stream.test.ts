/**
 * Long sessions read twice and streamed (`PI_SESSION_OTEL_STREAM_BYTES=0` streams every file):
 * the same spans, ids and attributes as a session held whole, requests handed out while the
 * file is still being read, and a session marked sent only once every request of it was taken.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import type { FileSystem } from "../../src/io/file-system.ts";
import { runCli } from "../cli/_harness.ts";
import { decodeRequest, type ReceivedSpan, startReceiver } from "./_receiver.ts";

const work = mkdtempSync(join(tmpdir(), "pi-session-otel-stream-"));
after(() => rmSync(work, { recursive: true, force: true }));

const STREAM = { PI_SESSION_OTEL_STREAM_BYTES: "0" };
const HELD = { PI_SESSION_OTEL_STREAM_BYTES: String(2 ** 40) };

/** A span with all it says, for comparing runs. */
const full = (s: ReceivedSpan) => JSON.stringify([s.traceId, s.spanId, s.parentSpanId, s.name, String(s.startNs), String(s.endNs), s.kind, s.status, Object.entries(s.attributes).sort()]);

const generated = join(work, "generated");
await generateSessions({ dir: generated, count: 40, seed: 20261202 });

/** `otel --all` over `agentDir` with `env`, to a fresh receiver: the run and the spans accepted. */
async function exportAll(agentDir: string, env: Record<string, string>, extra: string[] = []) {
  const receiver = await startReceiver();
  try {
    const run = await runCli(["otel", "--all", "--endpoint", receiver.url, ...extra], {
      fs: detectFileSystem(),
      env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "cache-all"), ...env },
      home: work,
      processCwd: work,
    });
    return { run, spans: receiver.accepted() };
  } finally {
    await receiver.close();
  }
}

test("otel streams sessions read twice with the spans, ids and attributes of sessions held whole (forks and clones, worker or not, --since)", { timeout: 120_000 }, async () => {
  const held = await exportAll(generated, { ...HELD, PI_SESSION_OTEL_WORKERS: "0" });
  assert.equal(held.run.code, 0, held.run.stderr);
  assert.ok(held.spans.length > 100);
  for (const workers of ["0", "1"]) {
    const streamed = await exportAll(generated, { ...STREAM, PI_SESSION_OTEL_WORKERS: workers });
    assert.equal(streamed.run.code, 0, streamed.run.stderr);
    assert.deepEqual(streamed.spans.map(full).sort(), held.spans.map(full).sort(), `${workers} workers`);
  }
  const since = ["--since", "2026-06-01"];
  const heldSince = await exportAll(generated, { ...HELD, PI_SESSION_OTEL_WORKERS: "0" }, since);
  const streamedSince = await exportAll(generated, { ...STREAM, PI_SESSION_OTEL_WORKERS: "0" }, since);
  assert.deepEqual(streamedSince.spans.map(full).sort(), heldSince.spans.map(full).sort());
});

const SESSION_ID = "0190cccc-0000-7000-8000-000000000003";
const usage = { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } };

/** A session of `turns` prompts, each answered with a tool call and its result: 2 spans a turn, and the root. */
function longSession(turns: number): string {
  const lines: unknown[] = [{ type: "session", version: 3, id: SESSION_ID, timestamp: "2026-02-01T00:00:00.000Z", cwd: "/w" }];
  let parent: string | null = null;
  let ms = Date.parse("2026-02-01T00:00:01.000Z");
  const add = (entry: Record<string, unknown>) => {
    const id = (lines.length).toString(16).padStart(8, "0");
    lines.push({ ...entry, id, parentId: parent, timestamp: new Date(ms += 1000).toISOString() });
    parent = id;
  };
  for (let turn = 0; turn < turns; turn++) {
    add({ type: "message", message: { role: "user", content: `step ${turn}`, timestamp: ms } });
    add({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: `call_${turn}`, name: "bash", arguments: { command: "ls" } }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "toolUse", timestamp: ms } });
    add({ type: "message", message: { role: "toolResult", toolCallId: `call_${turn}`, toolName: "bash", content: [{ type: "text", text: "ok" }], isError: false, timestamp: ms } });
  }
  return lines.map((line) => JSON.stringify(line) + "\n").join("");
}

const TURNS = 600;
const SPANS = 2 * TURNS + 1;

/** An agent dir holding the long session; its path. */
function longAgent(name: string): { agentDir: string; file: string } {
  const agentDir = join(work, name, "agent");
  const dir = join(agentDir, "sessions", "--w--");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `2026-02-01T00-00-00-000Z_${SESSION_ID}.jsonl`);
  writeFileSync(file, longSession(TURNS));
  return { agentDir, file };
}

/**
 * `base`, with the reads of `watched` cut into 4 KB pieces and each piece and each append noted
 * in `log` as it happens.
 */
function loggingFs(base: FileSystem, watched: string, log: string[]): FileSystem {
  return new Proxy(base, {
    get(target, key) {
      if (key === "read") {
        return async function* (path: string, range?: Parameters<FileSystem["read"]>[1]) {
          for await (const chunk of target.read(path, range)) {
            if (path !== watched) yield chunk;
            else for (let at = 0; at < chunk.length; at += 4096) {
              log.push("read");
              yield chunk.subarray(at, at + 4096);
            }
          }
        };
      }
      if (key === "append") {
        return (path: string, ...rest: unknown[]) => {
          log.push("append");
          return (target.append as (...args: unknown[]) => Promise<void>)(path, ...rest);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

test("otel writes a streamed session's first requests before it has read the session to its end", async () => {
  const { agentDir, file } = longAgent("order");
  const log: string[] = [];
  const out = join(work, "order", "traces.jsonl");
  const run = await runCli(["otel", "--all", "--out", out], {
    fs: loggingFs(detectFileSystem(), file, log),
    env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "order", "cache"), ...STREAM },
    home: join(work, "order"),
    processCwd: join(work, "order"),
  });
  assert.equal(run.code, 0, run.stderr);
  const lines = readFileSync(out, "utf8").trimEnd().split("\n");
  assert.equal(lines.flatMap((line) => decodeRequest(new TextEncoder().encode(line), "application/json")).length, SPANS);
  assert.ok(lines.length >= 3);
  assert.ok(log.indexOf("append") >= 0 && log.indexOf("append") < log.lastIndexOf("read"), "a request is written while the file is still being read");
});

test("otel marks a streamed session sent only once all its requests were accepted; then nothing new, an append sends only it", async () => {
  const { agentDir, file } = longAgent("acked");
  // The second request of the first run is refused; every other is accepted.
  const receiver = await startReceiver((n) => (n === 1 ? { status: 400, body: "no" } : { status: 200 }));
  const cli = () =>
    runCli(["otel", "--all", "--endpoint", receiver.url], {
      fs: detectFileSystem(),
      env: { PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: join(work, "acked", "cache"), ...STREAM },
      home: join(work, "acked"),
      processCwd: join(work, "acked"),
    });
  try {
    const refused = await cli();
    assert.equal(refused.code, 1);
    assert.equal(receiver.requests.length, 2, "the run stops at the refused request");
    const again = await cli();
    assert.equal(again.code, 0, again.stderr);
    assert.equal(receiver.requests.slice(2).flatMap((r) => r.spans).length, SPANS, "the whole session goes again");
    const sent = receiver.requests.length;
    const nothing = await cli();
    assert.match(nothing.stdout, /^Nothing new to send to /);
    assert.equal(receiver.requests.length, sent);
    const last = JSON.parse(readFileSync(file, "utf8").trimEnd().split("\n").at(-1)!);
    appendFileSync(file, JSON.stringify({ type: "usage", id: "0f0f0f0f", parentId: last.id, timestamp: "2026-03-01T00:00:00.000Z", provider: "anthropic", model: "claude-haiku", kind: "title", usage }) + "\n");
    const appended = await cli();
    assert.equal(appended.code, 0, appended.stderr);
    const spans = receiver.requests.slice(sent).flatMap((r) => r.spans);
    assert.deepEqual(spans.map((s) => s.attributes["pi.entry.id"]), ["0f0f0f0f"]);
  } finally {
    await receiver.close();
  }
});

test("streamSession() makes a full collection, pages kept, every `every` bytes of its second read, and none in a shorter read", async () => {
  const { Redactor } = await import("../../src/core/redact/redactor.ts");
  const { otlpEncoder } = await import("../../src/otel/otlp-encode.ts");
  const { indexSession, streamSession } = await import("../../src/otel/session-stream.ts");
  const dir = join(work, "paced");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "long.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 3, id: "paced-1", timestamp: "2025-06-01T10:00:00.000Z", cwd: "/w" })];
  for (let i = 0; i < 3000; i++) {
    const id = `b${String(i).padStart(7, "0")}`;
    const parentId = i === 0 ? null : `b${String(i - 1).padStart(7, "0")}`;
    lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: "x".repeat(200), timestamp: 1 } }));
  }
  writeFileSync(path, lines.join("\n") + "\n");
  const size = readFileSync(path).length;
  const fs = detectFileSystem();
  const options = { encode: otlpEncoder("http/protobuf", {}), redactor: new Redactor(), content: false };
  const job = { path, walk: true, stream: true };
  const first = await indexSession(fs, job);
  const spansWith = async (every: number) => {
    const calls: unknown[][] = [];
    let spans = 0;
    const done = await streamSession(fs, job, first, options, async (chunks) => {
      for (const chunk of chunks) spans += chunk.spans;
      return true;
    }, { every, collect: (...args) => calls.push(args) });
    assert.equal(done, true);
    return { calls, spans };
  };
  const paced = await spansWith(64 * 1024);
  assert.ok(paced.calls.length >= 1 && paced.calls.length <= Math.floor(size / (64 * 1024)), `${paced.calls.length} collections over ${size} bytes`);
  for (const args of paced.calls) assert.deepEqual(args, [false, false]);
  const unpaced = await spansWith(size + 1);
  assert.deepEqual(unpaced.calls, []);
  assert.equal(paced.spans, unpaced.spans);
  assert.ok(paced.spans >= 1, "the root span at least");
});
