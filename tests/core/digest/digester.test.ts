/**
 * The digests: a pass resumed at any line boundary equals one pass over the whole file, an
 * unterminated last line only counts in `final`, and the byte-level usage reader agrees with
 * the parsed-entry one on ordinary and odd lines.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type DigestKind, Digester, type DigestResult } from "../../../src/core/digest/digester.ts";
import { docsDigest } from "../../../src/core/digest/docs-digest.ts";
import { filesDigest } from "../../../src/core/digest/files-digest.ts";
import { digestInfo, listingDigest, messageTextsDigest } from "../../../src/core/digest/listing-digest.ts";
import { usageDigest, usageRowOfLine } from "../../../src/core/digest/usage-digest.ts";
import { rowCount, type UsageRow, usageRows } from "../../../src/core/digest/usage-state.ts";
import { SessionInfoReader } from "../../../src/core/info/session-info.ts";
import { entryUsage } from "../../../src/core/info/usage-totals.ts";
import { parseSession } from "../../../src/core/read/read-session.ts";
import { hostileCorpus } from "../_hostile-corpus.ts";
import {
  assistant,
  assistantMsg,
  branchSummary,
  bytes,
  compaction,
  entry,
  header,
  jsonl,
  label,
  message,
  sessionInfo,
  toolResultMsg,
  user,
} from "../_builders.ts";

const usage = (n: number) => ({ input: n, output: 2 * n, cacheRead: 3 * n, cacheWrite: 4 * n, totalTokens: 10 * n, cost: { input: n / 10, output: n / 5, cacheRead: 0, cacheWrite: 0, total: (3 * n) / 10 } });

const FILE = jsonl(
  header("s1"),
  user("u1", null, "read src/a.ts please"),
  message("a1", "u1", assistantMsg("ok", {
    content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "ok" }, { type: "toolCall", id: "c1", name: "read", arguments: { path: "src/a.ts" } }],
    usage: usage(1),
    responseModel: "claude-test-2",
  })),
  message("t1", "a1", toolResultMsg("file text", { usage: usage(2) })),
  message("b1", "t1", { role: "bashExecution", command: "cat 'my notes.md' | wc -l", output: "3", exitCode: 0, cancelled: false, truncated: false, timestamp: 1 }),
  entry("usage", "w1", "b1", { kind: "cache_warm", provider: "openai", model: "gpt-5", usage: usage(3) }),
  compaction("c1", "w1", { summary: "sum", firstKeptEntryId: "u1", tokensBefore: 9 }, { details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] }, usage: usage(4) }),
  branchSummary("bs1", "c1", "u1", "branch sum", { usage: usage(5) }),
  label("l1", "bs1", "u1", "good"),
  sessionInfo("n1", "l1", "  Named  "),
  assistant("a2", "n1", "bye"),
);

function runAll<S, D>(kind: DigestKind<S, D>, data: Uint8Array, cut?: number): { result: DigestResult<S>; rows: D[] } {
  const rows: D[] = [];
  const first = new Digester(kind, undefined, (r) => rows.push(r));
  first.push(data.subarray(0, cut ?? data.length));
  const part = first.finish();
  if (cut === undefined) return { result: part, rows };
  // A resumed pass starts at the first pass's end, as the catalog does after an append.
  const resumed = new Digester(kind, part, (r) => rows.push(r));
  resumed.push(data.subarray(part.end));
  return { result: resumed.finish(), rows };
}

const KINDS = [listingDigest, messageTextsDigest, usageDigest, filesDigest, docsDigest] as DigestKind<unknown, unknown>[];

test("Digester resumed at any byte gives the same state as one pass", () => {
  const data = bytes(FILE);
  for (const kind of KINDS) {
    const whole = runAll(kind, data);
    for (let cut = 0; cut <= data.length; cut += 7) {
      const resumed = runAll(kind, data, cut);
      assert.deepEqual(resumed.result.state, whole.result.state, `${kind.name} cut at ${cut}`);
      assert.equal(resumed.result.end, data.length);
      assert.equal(resumed.result.lines, whole.result.lines);
    }
  }
});

test("Digester keeps an unterminated last line out of the resumable state", () => {
  const complete = bytes(FILE);
  const torn = complete.subarray(0, complete.length - 1); // the last line lacks its \n
  const { result } = runAll(usageDigest, torn);
  assert.ok(result.final, "the last line counts in final");
  assert.equal(result.end, complete.length - 1 - (FILE.trimEnd().split("\n").at(-1)!.length));
  assert.equal(rowCount(result.final!.data), rowCount(result.state.data) + 1);
  // Completing the line later resumes from `end` and counts it once.
  const resumed = new Digester(usageDigest, result);
  resumed.push(complete.subarray(result.end));
  assert.deepEqual(resumed.finish().state, runAll(usageDigest, complete).result.state);
});

/** Dates as strings: an Invalid Date is never deep-equal to another. */
const plain = (info: object | null) => info && { ...info, created: String((info as { created: Date }).created), modified: String((info as { modified: Date }).modified) };

test("listingDigest gives the SessionInfo that SessionInfoReader gives", { timeout: 120_000 }, () => {
  for (const text of [FILE, ...hostileCorpus().slice(0, 40).map((c) => new TextDecoder().decode(c.bytes))]) {
    const data = bytes(text);
    const reader = new SessionInfoReader("/s.jsonl");
    reader.push(data);
    const expected = reader.end(5);
    const { result } = runAll(listingDigest, data);
    assert.deepEqual(plain(digestInfo("/s.jsonl", result.final ?? result.state, 5)), plain(expected));
  }
});

test("messageTextsDigest gives the allMessagesText SessionInfoReader gives, over texts joined a slice at a time and resumed anywhere", { timeout: 120_000 }, () => {
  // Over 256 KB of texts, so that some are joined before the pass ends; the last line torn.
  const long = jsonl(header("s2"), ...Array.from({ length: 900 }, (_, i) => user(`u${i}`, i ? `u${i - 1}` : null, `text ${i} ${"日本 word ".repeat(i % 97)}`)));
  const torn = long.slice(0, -1);
  let sessions = 0;
  for (const text of [FILE, long, torn, ...hostileCorpus().slice(0, 40).map((c) => new TextDecoder().decode(c.bytes))]) {
    const data = bytes(text);
    const reader = new SessionInfoReader("/s.jsonl", { withText: true });
    reader.push(data);
    const expected = reader.end(5)?.allMessagesText;
    const whole = runAll(messageTextsDigest, data).result;
    const found = (whole.final ?? whole.state).data;
    if (expected !== undefined) sessions++;
    assert.deepEqual(found, expected === undefined ? found : { text: expected });
    for (const cut of [1, data.length >> 2, data.length >> 1, data.length - 3]) {
      const resumed = runAll(messageTextsDigest, data, cut).result;
      assert.deepEqual(resumed.final ?? resumed.state, whole.final ?? whole.state, `cut at ${cut}`);
    }
  }
  assert.ok(bytes(long).length > 300 * 1024);
  assert.ok(sessions >= 3, `${sessions} sessions compared`);
});

test("usageRowOfLine agrees with entryUsage on every line of the hostile corpus", () => {
  for (const c of hostileCorpus()) {
    const data = c.bytes;
    if (data.length > 4e6) continue;
    const file = parseSession(data);
    const lines = new TextDecoder().decode(data).split("\n");
    for (const e of file.entries) {
      const line = file.entryLines[file.entries.indexOf(e)];
      const raw = { bytes: bytes(lines[line - 1].replace(/\r$/, "")), number: line, offset: 0, terminated: true };
      const row = usageRowOfLine(raw);
      const expected = entryUsage(e);
      const counted = expected && typeof expected.usage === "object" && expected.usage !== null;
      if (file.migrated) continue; // ids are derived in memory for old files; the row keeps what is on disk
      assert.equal(row !== undefined, Boolean(counted), `${c.name} line ${line}`);
      if (row && expected) assert.equal(row[3], expected.key, `${c.name} line ${line}`);
    }
  }
});

/** Rows as `usageRowOfLine` reads each line, gathered by a digest of their own. */
const rowsByLine: DigestKind<UsageRow[]> = {
  name: "rows-by-line",
  version: 1,
  initial: () => [],
  entry(data, line) {
    const row = usageRowOfLine(line);
    if (row) data.push(row);
  },
};

test("usageDigest keeps exactly the rows usageRowOfLine reads, ids and timestamps of every kind included", () => {
  const odd = (id: string | null, timestamp: unknown, n: number) =>
    message(id as string, null, assistantMsg("x", { usage: usage(n) }), { timestamp });
  const stamps = jsonl(
    header("s2"),
    odd("257b42c8", "2026-12-01T07:36:17.599Z", 1),
    odd("257B42C8", "2026-12-01T07:36:17.599Z", 2),
    odd("\u0032" + "57b42c8", "2026-12-01T07:36:17.599Z", 3),
    odd("257b42c8", "2026-12-01T07:36:17Z", 4),
    odd("257b42c8", "2026-12-01T07:36:17.59\u0039Z", 5),
    odd("257b42c8", "0050-01-01T00:00:00.000Z", 6),
    odd("257b42c8", "2025-02-29T00:00:00.000Z", 7),
    odd("257b42c8", 1764574577599, 8),
    odd(null, "2026-12-01T07:36:17.599Z", 9),
    odd("an-id-of-pi-0.x", null, 10),
  ).replaceAll("\\\\u", "\\u");
  for (const [name, data] of [["stamps", bytes(stamps)], ...hostileCorpus().map((c) => [c.name, c.bytes] as const)] as const) {
    if (data.length > 4e6) continue;
    const ours = runAll(usageDigest, data).result;
    const byLine = runAll(rowsByLine, data).result;
    assert.deepEqual(usageRows((ours.final ?? ours.state).data), (byLine.final ?? byLine.state).data, name);
  }
});

test("usageDigest rows: source, key and normalised numbers, as pi counts them", () => {
  const { result } = runAll(usageDigest, bytes(FILE));
  assert.deepEqual(usageRows(result.state.data).map((r) => [r[0], r[1], r[3], r[4], r[12]]), [
    ["assistant", "a1", "anthropic/claude-test-2", 1, 0.3],
    ["toolResult", "t1", "Tools/summaries", 2, 0.6],
    ["usage", "w1", "openai/gpt-5", 3, 0.9],
    ["compaction", "c1", "Tools/summaries", 4, 1.2],
    ["branch_summary", "bs1", "Tools/summaries", 5, 1.5],
    ["assistant", "a2", "anthropic/claude-test", 1, 0],
  ]);
});

test("filesDigest finds tool calls, bash commands and summary file lists", () => {
  const { result } = runAll(filesDigest, bytes(FILE));
  assert.deepEqual(result.state.data.refs.map((r) => [r[0], r[2], r[3], r[4]]), [
    ["a1", "read", "read", ["src/a.ts"]],
    ["b1", "bash", "!bash", ["my notes.md"]],
    ["c1", "read", "compaction", ["src/a.ts"]],
    ["c1", "modified", "compaction", ["src/b.ts"]],
  ]);
  // A list of paths named again is the one instance the state already holds; another is its own.
  const refs = result.state.data.refs;
  assert.equal(refs[2][4], refs[0][4]);
  assert.notEqual(refs[3][4], refs[0][4]);
});

test("docsDigest emits the texts with where their lines are", () => {
  const { rows } = runAll(docsDigest, bytes(FILE));
  assert.deepEqual(rows.map((r) => [r.entryId, r.role, r.part, r.line]), [
    ["u1", "user", "text", 2],
    ["a1", "assistant", "text", 3],
    ["a1", "assistant", "thinking", 3],
    ["t1", "toolResult", "text", 4],
    ["b1", "bashExecution", "text", 5],
    ["c1", "summary", "text", 7],
    ["bs1", "summary", "text", 8],
    ["l1", "label", "text", 9],
    ["n1", "name", "text", 10],
    ["a2", "assistant", "text", 11],
  ]);
  const lines = FILE.split("\n");
  for (const r of rows) assert.equal(new TextDecoder().decode(bytes(FILE).subarray(r.offset, r.offset + r.length)), lines[r.line - 1]);
});

test("Digester rejects a file whose first line is not a header", () => {
  const { result } = runAll(listingDigest, bytes(jsonl(user("u1", null, "hi"), header("s"))));
  assert.equal(result.state.rejected, true);
  assert.equal(digestInfo("/x", result.state, 0), null);
});
