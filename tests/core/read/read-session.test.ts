/**
 * Tests for the full reader: line splitting, issues with line numbers, header rules, and
 * the streaming reader giving exactly what the in-memory parser gives, wherever chunks split.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseSession, readSession, type SessionFile } from "../../../src/core/mod.ts";
import { type ReadOptions, SessionReader } from "../../../src/core/read/read-session.ts";
import { assistant, bytes, concat, header, jsonl, user } from "../_builders.ts";

/** `[code, line]` of every issue, in report order. */
function codes(file: SessionFile): [string, number][] {
  return file.issues.map((i) => [i.code, i.line]);
}

/** Parses `text` with reader options. */
function parseWith(text: string, options: ReadOptions): SessionFile {
  const reader = new SessionReader(options);
  reader.push(new TextEncoder().encode(text));
  return reader.end();
}

const H = header("s1");
const U = user("u1", null, "hello");
const A = assistant("a1", "u1", "hi");

test("parseSession() reads a well-formed file without issues", () => {
  const file = parseSession(jsonl(H, U, A));
  assert.deepEqual(file.header, H);
  assert.deepEqual(file.entries, [U, A]);
  assert.deepEqual(file.entryLines, [2, 3]);
  assert.deepEqual(file.issues, []);
  assert.equal(file.version, 3);
  assert.equal(file.migrated, false);
  assert.equal(file.notSession, false);
  assert.equal(file.endsWithNewline, true);
  assert.equal(file.lineCount, 3);
  assert.equal(file.byteLength, bytes(jsonl(H, U, A)).length);
});

test("parseSession() accepts a string or bytes alike", () => {
  const text = jsonl(H, U, A);
  assert.deepEqual(parseSession(text), parseSession(bytes(text)));
});

test("parseSession() skips blank and whitespace-only lines", () => {
  const text = jsonl(H) + "\n   \n" + jsonl(U) + "\t\r\n\n" + jsonl(A);
  const file = parseSession(text);
  assert.deepEqual(file.entries, [U, A]);
  assert.deepEqual(file.entryLines, [4, 7]);
  assert.deepEqual(codes(file), [["crlf", 0]]);
});

test("parseSession() reports a malformed line with its line number and keeps the rest", () => {
  const file = parseSession(jsonl(H, U) + '{"type":"message", oops}\n' + jsonl(A));
  assert.deepEqual(codes(file), [["malformed-json", 3]]);
  assert.match(file.issues[0].message, /^Line 3 is not valid JSON/);
  assert.deepEqual(file.entries, [U, A]);
  assert.deepEqual(file.entryLines, [2, 4]);
});

test("parseSession() reports a torn last line", () => {
  const torn = JSON.stringify(A).slice(0, 30);
  const file = parseSession(jsonl(H, U) + torn);
  assert.deepEqual(codes(file), [["torn-line", 3]]);
  assert.deepEqual(file.entries, [U]);
  assert.equal(file.endsWithNewline, false);
  assert.equal(file.lineCount, 3);
});

test("parseSession() reports a missing final newline but keeps the last entry", () => {
  const file = parseSession(jsonl(H, U) + JSON.stringify(A));
  assert.deepEqual(codes(file), [["missing-newline", 3]]);
  assert.deepEqual(file.entries, [U, A]);
  assert.equal(file.endsWithNewline, false);
});

test("parseSession() reports whitespace after the last newline as a missing newline only", () => {
  const file = parseSession(jsonl(H, U) + "  ");
  assert.deepEqual(codes(file), [["missing-newline", 3]]);
  assert.deepEqual(file.entries, [U]);
});

test("parseSession() reads CRLF files like LF files and notes CRLF once", () => {
  const lf = parseSession(jsonl(H, U, A));
  const crlf = parseSession(jsonl(H, U, A).replaceAll("\n", "\r\n"));
  assert.deepEqual(crlf.entries, lf.entries);
  assert.deepEqual(crlf.header, lf.header);
  assert.deepEqual(crlf.entryLines, lf.entryLines);
  assert.deepEqual(codes(crlf), [["crlf", 0]]);
  assert.equal(crlf.endsWithNewline, true);
});

test("parseSession() strips a UTF-8 BOM and reports it on line 1", () => {
  const file = parseSession(concat(new Uint8Array([0xef, 0xbb, 0xbf]), jsonl(H, U)));
  assert.deepEqual(file.header, H);
  assert.deepEqual(file.entries, [U]);
  assert.deepEqual(codes(file), [["bom", 1]]);
});

test("parseSession() treats a BOM-like sequence after line 1 as part of that line", () => {
  const file = parseSession(concat(jsonl(H), new Uint8Array([0xef, 0xbb, 0xbf]), jsonl(U)));
  assert.deepEqual(codes(file), [["malformed-json", 2]]);
  assert.deepEqual(file.entries, []);
});

test("parseSession() replaces invalid UTF-8 with U+FFFD and reports the line", () => {
  const [before, after] = JSON.stringify(user("u1", null, "a|b")).split("|");
  const file = parseSession(concat(jsonl(H), before, new Uint8Array([0xff, 0xc3]), after, "\n"));
  assert.deepEqual(codes(file), [["invalid-utf8", 2]]);
  assert.equal(file.entries.length, 1);
  assert.equal((file.entries[0] as { message: { content: string } }).message.content, "a\uFFFD\uFFFDb");
});

test("parseSession() reports invalid UTF-8 and bad JSON on the same line as two issues", () => {
  const file = parseSession(concat(jsonl(H), new Uint8Array([0x7b, 0xff, 0x0a])));
  assert.deepEqual(codes(file), [["invalid-utf8", 2], ["malformed-json", 2]]);
});

test("parseSession() ignores a duplicate header line and reports it", () => {
  const file = parseSession(jsonl(H, U, header("s2"), A));
  assert.deepEqual(file.header, H);
  assert.deepEqual(file.entries, [U, A]);
  assert.deepEqual(file.entryLines, [2, 4]);
  assert.deepEqual(codes(file), [["duplicate-header", 3]]);
});

test("parseSession() reports JSON lines that are not objects and skips them", () => {
  const file = parseSession(jsonl(H, 5, "text", [1, 2], null, true, U));
  assert.deepEqual(codes(file), [2, 3, 4, 5, 6].map((line) => ["not-an-object", line]));
  assert.equal(file.issues[0].message, "Line 2 is a number, not an entry object");
  assert.match(file.issues[2].message, /an array/);
  assert.deepEqual(file.entries, [U]);
  assert.deepEqual(file.entryLines, [7]);
});

test("parseSession() accepts a header after blank, malformed and non-object lines", () => {
  // pi skips unparsable lines before the header too; a non-object line is reported, not trusted.
  const file = parseSession("\n{oops\n" + jsonl(42, H, U));
  assert.equal(file.notSession, false);
  assert.deepEqual(file.header, H);
  assert.deepEqual(file.entries, [U]);
  assert.deepEqual(codes(file), [["malformed-json", 2], ["not-an-object", 3]]);
});

test("parseSession() marks a file whose first parsed line is not a header as not a session", () => {
  const file = parseSession("\n" + jsonl(U, H, A));
  assert.equal(file.notSession, true);
  assert.equal(file.header, null);
  assert.deepEqual(file.entries, []);
  assert.deepEqual(file.entryLines, []);
  assert.equal(file.version, 0);
  assert.deepEqual(codes(file), [["not-a-session", 2]]);
});

test("parseSession() requires a string id on the header", () => {
  const file = parseSession(jsonl({ ...H, id: 7 }, U));
  assert.equal(file.notSession, true);
  assert.deepEqual(file.entries, []);
  assert.deepEqual(codes(file), [["bad-header", 1]]);
  assert.match(file.issues[0].message, /"id" is a number, not a string/);
});

test("parseSession() reports an empty file", () => {
  const file = parseSession("");
  assert.equal(file.notSession, true);
  assert.equal(file.header, null);
  assert.deepEqual(file.entries, []);
  assert.deepEqual(codes(file), [["empty-file", 0]]);
  assert.equal(file.endsWithNewline, true);
  assert.equal(file.lineCount, 0);
  assert.equal(file.byteLength, 0);
});

test("parseSession() reports a file of blank lines as holding no entries", () => {
  const file = parseSession("\n \n\n");
  assert.equal(file.notSession, true);
  assert.deepEqual(codes(file), [["not-a-session", 0]]);
});

test("parseSession() reads a header-only file as an empty session", () => {
  const file = parseSession(jsonl(H));
  assert.equal(file.notSession, false);
  assert.deepEqual(file.header, H);
  assert.deepEqual(file.entries, []);
  assert.deepEqual(file.issues, []);
});

test("parseSession() migrates an old file in memory and keeps the version on disk", () => {
  const v1 = header("s1", null);
  const file = parseSession(jsonl(v1, { type: "message", timestamp: "t", message: { role: "user", content: "x" } }));
  assert.equal(file.version, 1);
  assert.equal(file.migrated, true);
  assert.equal(file.header?.version, 3);
  assert.match(file.entries[0].id, /^[0-9a-f]{8}$/);
  assert.equal(file.entries[0].parentId, null);
});

test("parseSession() keeps issue messages short for a huge non-object line", () => {
  const huge = '"' + "x".repeat(1_000_000) + '"\n';
  const file = parseSession(jsonl(H) + huge);
  assert.deepEqual(codes(file), [["not-an-object", 2]]);
  assert.ok(file.issues[0].message.length < 200, `message is ${file.issues[0].message.length} characters`);
});

/** A file exercising every per-line path: BOM, CRLF, blank, malformed, multi-byte and invalid UTF-8, torn tail. */
function mixedFile(): Uint8Array {
  const tornUtf8 = JSON.stringify(assistant("a1", "u1", "x|y")).split("|");
  return concat(
    new Uint8Array([0xef, 0xbb, 0xbf]),
    jsonl(H).replace("\n", "\r\n"),
    "\n  \n",
    jsonl(user("u1", null, "héllo wörld ✓ 𝄞")),
    "{broken\n",
    tornUtf8[0],
    new Uint8Array([0xe2, 0x82]),
    tornUtf8[1],
    "\n",
    jsonl(7, header("s2")),
    JSON.stringify(user("u2", "a1", "torn")).slice(0, 25),
  );
}

async function* chunked(data: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of cuts) {
    yield data.subarray(start, cut);
    start = cut;
  }
  yield data.subarray(start);
}

test("readSession() gives the parseSession() result for a split at every byte position", { timeout: 60_000 }, async () => {
  const data = mixedFile();
  const expected = parseSession(data);
  assert.deepEqual(codes(expected), [
    ["crlf", 0],
    ["bom", 1],
    ["malformed-json", 5],
    ["invalid-utf8", 6],
    ["not-an-object", 7],
    ["duplicate-header", 8],
    ["torn-line", 9],
  ]);
  for (let cut = 0; cut <= data.length; cut++) {
    assert.deepEqual(await readSession(chunked(data, [cut])), expected, `split at byte ${cut}`);
  }
});

test("readSession() gives the parseSession() result when fed one byte at a time, with empty chunks", async () => {
  const data = mixedFile();
  const cuts: number[] = [];
  for (let i = 0; i <= data.length; i++) cuts.push(i, i);
  assert.deepEqual(await readSession(chunked(data, cuts)), parseSession(data));
});

test("readSession() accepts a plain iterable of chunks", async () => {
  const data = bytes(jsonl(H, U, A));
  assert.deepEqual(await readSession([data.subarray(0, 10), data.subarray(10)]), parseSession(data));
});

test("readSession() reads a line larger than several chunks", async () => {
  const text = "y".repeat(300_000);
  const data = bytes(jsonl(H, user("u1", null, text), A));
  const cuts: number[] = [];
  for (let at = 4096; at < data.length; at += 4096) cuts.push(at);
  const file = await readSession(chunked(data, cuts));
  assert.deepEqual(file.issues, []);
  assert.equal((file.entries[0] as { message: { content: string } }).message.content, text);
  assert.deepEqual(file.entries[1], A);
  assert.deepEqual(file.entryLines, [2, 3]);
});

test("SessionReader tells keep() which lines it parsed skimmed", () => {
  const long = user("u2", "u1", "x".repeat(10_000));
  const seen: [string, boolean | undefined][] = [];
  const file = parseWith(jsonl(H, U, long), {
    // Drops the text of long lines.
    skim: (line) => new TextEncoder().encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(line)), message: { role: "user", content: "" } })),
    keep: (entry, skimmed) => {
      seen.push([String(entry.id), skimmed]);
      return entry;
    },
  });
  assert.deepEqual(seen, [["u1", false], ["u2", true]]);
  assert.equal(file.entries.length, 2);
});

test("SessionReader.pushLine() takes lines skimmed elsewhere, and refuses skimmed bytes it would not use", () => {
  const encode = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
  const long = user("u2", "u1", "x".repeat(10_000));
  const cut = encode({ ...long, message: { role: "user", content: "" } });
  const options: ReadOptions = { skim: () => cut, keep: (entry, skimmed) => ({ ...entry, skimmed }) };
  const lines = [encode(H), encode(U), encode(long)];
  const line = (k: number, bytes = lines[k]) => ({ bytes, number: k + 1, offset: lines.slice(0, k).reduce((n, l) => n + l.length + 1, 0), terminated: true });
  const reader = new SessionReader(options);
  // Before the header is read, nothing is skimmed: the header line must come whole.
  assert.equal(reader.pushLine(line(0, cut), lines[0].length, true), false);
  assert.equal(reader.pushLine(line(0), lines[0].length, false), true);
  // A line shorter than what is skimmed; skimmed bytes that do not parse cleanly.
  assert.equal(reader.pushLine(line(1, cut), lines[1].length, true), false);
  assert.equal(reader.pushLine(line(1), lines[1].length, false), true);
  assert.equal(reader.pushLine(line(2, encode("{oops")), lines[2].length, true), false);
  assert.equal(reader.pushLine(line(2, cut), lines[2].length, true), true);
  // The same as the reader that skims as it splits.
  assert.deepEqual(reader.end(), parseWith(jsonl(H, U, long), options));
});
