/**
 * The one read `otel` makes of a session: walking a current-format file gives the spans the
 * full reader's entries give, and the usage rows the usage digest makes; older files and lines
 * the walk cannot read go through the full reader.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSessions } from "../../scripts/gen-sessions.ts";
import { Digester } from "../../src/core/digest/digester.ts";
import { usageDigest } from "../../src/core/digest/usage-digest.ts";
import { encodeUsage } from "../../src/core/digest/usage-state.ts";
import { parseSession, readSession } from "../../src/core/read/read-session.ts";
import { Redactor } from "../../src/core/redact/redactor.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { sessionSpans } from "../../src/otel/session-spans.ts";
import { readHeader, readSpanSource } from "../../src/otel/span-entries.ts";

const encoder = new TextEncoder();
const redactor = new Redactor();

async function* chunks(text: string, size = 37): AsyncIterable<Uint8Array> {
  const bytes = encoder.encode(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function digestUsage(text: string): unknown {
  const digester = new Digester(usageDigest);
  digester.push(encoder.encode(text));
  const { state, final } = digester.finish();
  return encodeUsage((final ?? state).data);
}

/** The spans of the full reader's entries and of `readSpanSource`'s, and both usages. */
async function both(text: string, walk: boolean) {
  const full = parseSession(text);
  const source = await readSpanSource(chunks(text), walk);
  const spansOf = (entries: typeof full.entries) => sessionSpans({ header: full.header!, entries, from: 0, copied: [], redactor, content: false });
  return { full, source, expected: spansOf(full.entries), actual: spansOf(source.entries), usage: encodeUsage(source.usage), digest: digestUsage(text) };
}

const usage = (n: number) => ({ input: n, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: n + 9, cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 } });
const line = (value: unknown) => JSON.stringify(value);

const HEADER = line({ type: "session", version: 3, id: "s-1", timestamp: "2025-06-01T10:00:00.000Z", cwd: "/w" });
const LINES = [
  line({ type: "message", id: "a0000001", parentId: null, timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "x".repeat(5000) }], timestamp: 1 } }),
  // The content comes before the role: its tool call still parents the tool span.
  `{"type":"message","id":"a0000002","parentId":"a0000001","timestamp":"2025-06-01T10:00:02.000Z","message":{"content":[{"type":"thinking","thinking":"h\\"m"},{"type":"toolCall","id":"call-1","name":"bash","arguments":{"command":"ls [x]"}}],"role":"assistant","provider":"anthropic","model":"claude-sonnet-4-5","api":"anthropic-messages","usage":${line(usage(10))},"stopReason":"toolUse"}}`,
  line({ type: "message", id: "a0000003", parentId: "a0000002", timestamp: "2025-06-01T10:00:03.000Z", message: { role: "toolResult", toolCallId: "call-1", toolName: "bash", content: [{ type: "text", text: "out\n".repeat(3000) }], isError: true, usage: usage(1) } }),
  // Escapes in an id, a model, and an error message.
  `{"type":"message","id":"a\\u0030000004","parentId":"a0000003","timestamp":"2025-06-01T10:00:04.000Z","message":{"role":"assistant","provider":"openai","model":"gpt-\\u00e9","content":"plain text","usage":${line(usage(20))},"stopReason":"error","errorMessage":"boom \\"quoted\\" ${"e".repeat(2000)}"}}`,
  `{"type":"message","id":"a0000005",`,
  line({ type: "compaction", id: "a0000006", parentId: "a0000004", timestamp: "2025-06-01T10:00:06.000Z", summary: "s".repeat(3000), firstKeptEntryId: "a0000003", tokensBefore: 1234, usage: usage(30) }) + "\r",
  line({ type: "usage", id: "a0000007", parentId: "a0000006", timestamp: "2025-06-01T10:00:07.000Z", provider: "anthropic", model: "claude-haiku", kind: "title", usage: usage(40) }),
  line({ type: "branch_summary", id: "a0000008", parentId: "a0000001", timestamp: "2025-06-01T10:00:08.000Z", fromId: "a0000007", summary: "b", usage: usage(50) }),
  HEADER,
  "",
  line({ type: "session_info", id: "a0000009", parentId: "a0000008", timestamp: "2025-06-01T10:00:09.000Z", name: "named \u2603" }),
  line(["not", "an", "entry"]),
  line({ type: "label", id: "a0000010", parentId: "a0000009", timestamp: "2025-06-01T10:00:10.000Z", targetId: "a0000002", label: "l" }),
];

test("readSpanSource() walks a current-format file to the spans and usage rows of the full reader and the usage digest", async () => {
  const text = [HEADER, ...LINES].join("\n") + "\n";
  const { full, source, expected, actual, usage: rows, digest } = await both(text, true);
  assert.equal(source.header?.id, "s-1");
  assert.equal(source.entries.length, full.entries.length);
  assert.deepEqual(actual, expected);
  assert.deepEqual(rows, digest);
  const tool = actual.find((s) => s.name === "execute_tool bash")!;
  assert.equal(tool.parentSpanId, actual.find((s) => s.entryId === "a0000002")!.spanId);
  assert.ok(actual.some((s) => s.entryId === "a0000004" && s.errorMessage?.startsWith('boom "quoted"')));
});

test("readSpanSource() finds an assistant's tool calls among content elements of any kind, and falls back on an unclosed content array", async () => {
  const assistant = (id: string, content: string) =>
    `{"type":"message","id":"${id}","parentId":null,"timestamp":"2025-06-01T10:00:0${id.at(-1)}.000Z","message":{"role":"assistant","content":${content},"provider":"p","model":"m","usage":${line(usage(1))},"stopReason":"toolUse"}}`;
  const result = (id: string, call: string) => line({ type: "message", id, parentId: null, timestamp: `2025-06-01T10:00:0${id.at(-1)}.000Z`, message: { role: "toolResult", toolCallId: call, toolName: "t", content: [], isError: false } });
  const text = [
    HEADER,
    assistant("c0000001", `[ "a ] { string" , [1, [2, "]"], {"type":"toolCall","id":"nested"}] , 3 , null , {"type":"toolCall","id":"call-a","arguments":{"x":[1,"]"]}} ]`),
    result("c0000002", "call-a"),
    result("c0000003", "nested"),
    assistant("c0000004", `[{"type":"toolCall","id":"call-b"}, "x"`),
    result("c0000005", "call-b"),
  ].join("\n") + "\n";
  const { full, source, expected, actual, usage: rows, digest } = await both(text, true);
  assert.equal(source.entries.length, full.entries.length);
  assert.deepEqual(actual, expected);
  assert.deepEqual(rows, digest);
  const parentOf = (entryId: string) => actual.find((s) => s.entryId === entryId)!.parentSpanId;
  assert.equal(parentOf("c0000002"), actual.find((s) => s.entryId === "c0000001")!.spanId);
});

test("readSpanSource() reads a model again when the one before it is spelled with escapes or UTF-8 bytes that look alike", async () => {
  const assistant = (id: string, model: string) =>
    `{"type":"message","id":"${id}","parentId":null,"timestamp":"2025-06-01T10:00:0${id.at(-1)}.000Z","message":{"role":"assistant","provider":"p","model":"${model}","content":[],"usage":${line(usage(1))},"stopReason":"stop"}}`;
  // The JSON text "\\u0041" is \u0041, then "\u0041" is A; "\u00c3\u00a9" is Ã©, then the bytes C3 A9 are é.
  const text = [HEADER, assistant("b0000001", "\\\\u0041"), assistant("b0000002", "\\u0041"), assistant("b0000003", "\\u00c3\\u00a9"), assistant("b0000004", "é")].join("\n") + "\n";
  const { source, expected, actual } = await both(text, true);
  assert.deepEqual(source.entries.map((e) => (e as { message: { model: string } }).message.model), ["\\u0041", "A", "Ã©", "é"]);
  assert.deepEqual(actual, expected);
});

test("readSpanSource() reads a parent id that spells the id of the line before, or another, with or without escapes", async () => {
  const entry = (id: string, parentId: string) =>
    `{"type":"message","id":"${id}","parentId":${parentId},"timestamp":"2025-06-01T10:00:0${id.at(-1)}.000Z","message":{"role":"assistant","provider":"p","model":"m","content":[],"usage":${line(usage(1))},"stopReason":"stop"}}`;
  const text = [
    HEADER,
    entry("d0000001", "null"),
    entry("d0000002", '"d0000001"'),
    entry("d0000003", '"d\\u0030000002"'),
    entry("d\\u0030000004", '"d0000003"'),
    entry("d0000005", '"d0000004"'),
    entry("\\u00e9", '"d0000001"'),
    entry("d0000007", '"\\u00e9"'),
    entry("d0000008", '"d0000006"'),
  ].join("\n") + "\n";
  const { full, source, expected, actual } = await both(text, true);
  const parents = source.entries.map((e) => e.parentId);
  assert.deepEqual(parents, full.entries.map((e) => e.parentId));
  assert.deepEqual(parents, [null, "d0000001", "d0000002", "d0000003", "d0000004", "d0000001", "\u00e9", "d0000006"]);
  assert.deepEqual(actual, expected);
});

test("readSpanSource() reads a null parent id or model as null after an id or model whose two letters its bytes hold", async () => {
  const entry = (id: string, parentId: string, model: string) =>
    `{"type":"message","id":"${id}","parentId":${parentId},"timestamp":"2025-06-01T10:00:01.000Z","message":{"role":"assistant","provider":"p","model":${model},"content":[],"usage":${line(usage(1))},"stopReason":"stop"}}`;
  // The bytes of null are n, u, l, l: without a look at the quote, "ul" would match them.
  const text = [HEADER, entry("ul", "null", '"ul"'), entry("e0000002", "null", "null"), entry("e0000003", '"ul"', '"m"')].join("\n") + "\n";
  const { full, source, expected, actual } = await both(text, true);
  assert.deepEqual(source.entries.map((e) => e.parentId), [null, null, "ul"]);
  assert.deepEqual(source.entries.map((e) => (e as { message: { model: unknown } }).message.model), ["ul", null, "m"]);
  assert.deepEqual(source.entries.map((e) => e.parentId), full.entries.map((e) => e.parentId));
  assert.deepEqual(actual, expected);
});

test("readSpanSource() leaves out a torn last line and keeps a complete one without its newline", async () => {
  const complete = [HEADER, ...LINES].join("\n");
  const torn = complete + "\n" + line({ type: "message", id: "a0000011", parentId: "a0000010", timestamp: "2025-06-01T10:00:11.000Z", message: { role: "assistant", usage: usage(1) } }).slice(0, -3);
  for (const [text, last] of [[complete, "a0000010"], [torn, "a0000010"]]) {
    const { source, expected, actual, usage: rows, digest } = await both(text, true);
    assert.equal(source.entries.at(-1)?.id, last);
    assert.deepEqual(actual, expected);
    assert.deepEqual(rows, digest);
  }
});

test("readSpanSource() reads an older file with the full reader: migrated entries, the digest's usage rows", async () => {
  const v1 = [
    line({ type: "session", id: "old", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/w" }),
    line({ type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } }),
    line({ type: "message", timestamp: "2024-01-01T00:00:02.000Z", message: { role: "assistant", provider: "p", model: "m", content: [], usage: usage(5), stopReason: "stop" } }),
  ].join("\n") + "\n";
  const { source, expected, actual, usage: rows, digest } = await both(v1, false);
  assert.equal(source.entries.length, 2);
  assert.equal(typeof source.entries[0].id, "string", "migrated: ids given");
  assert.deepEqual(actual, expected);
  assert.deepEqual(rows, digest);
});

test("readSpanSource() of generated sessions (forks, clones, older formats) gives the full reader's spans and the digest's rows", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-span-entries-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const fs = detectFileSystem();
  const files = await generateSessions({ dir, count: 40, seed: 20261202 });
  for (const path of files) {
    const full = await readSession(fs.read(path));
    const header = await readHeader(fs, path);
    assert.equal(header?.id, full.header?.id, path);
    const source = await readSpanSource(fs.read(path), full.version >= 3);
    const spansOf = (entries: typeof full.entries) => sessionSpans({ header: full.header!, entries, from: 0, copied: [], redactor, content: false });
    assert.deepEqual(spansOf(source.entries), spansOf(full.entries), path);
    const digester = new Digester(usageDigest);
    for await (const chunk of fs.read(path)) digester.push(chunk);
    const { state, final } = digester.finish();
    assert.deepEqual(encodeUsage(source.usage), encodeUsage((final ?? state).data), path);
  }
});

test("readHeader() gives null for a file whose first line is not a session header", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-session-read-header-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const fs = detectFileSystem();
  const path = join(dir, "x.jsonl");
  await fs.writeAtomic(path, encoder.encode(line({ type: "message", id: "a" }) + "\n"));
  assert.equal(await readHeader(fs, path), null);
  const long = join(dir, "long.jsonl");
  await fs.writeAtomic(long, encoder.encode(line({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" + "d".repeat(9000) }) + "\n"));
  assert.equal((await readHeader(fs, long))?.id, "s");
});
