/**
 * The lean read on two threads (`readSessionAhead`, skim-worker.ts): the worker splits and skims,
 * this thread parses, and the file read is the one the one-thread read gives, entry for entry and
 * problem for problem, on long lines, broken ones (skimmed bytes that do not parse, control bytes,
 * bad UTF-8, a torn end), CRLF, a byte order mark, an old version, and lines longer than a message.
 * The worker runs on every runtime, Node with tsx included (src/io/worker-start.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chainSession } from "../../scripts/bench/chain-session.ts";
import { LEAN_READ, PREVIEW_READ } from "../../src/core/read/lean-entry.ts";
import { type ReadOptions, readSession } from "../../src/core/read/read-session.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { readSessionAhead, readSessionFile } from "../../src/query/skim-ahead.ts";
import { longLineText } from "../cli/_long-lines.ts";

const fs = detectFileSystem();
const HEADER = `{"type":"session","version":3,"id":"skim-0001","timestamp":"2024-01-01T00:00:00.000Z","cwd":"/work/proj"}`;
const BIG = "x".repeat(9000);
let dir = "";

function user(id: string, parent: string | null, text: string): string {
  return `{"type":"message","id":"${id}","parentId":${parent === null ? "null" : `"${parent}"`},"timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"${text}"}}`;
}

/** Lines, each ending with `\n` (the last one too unless `torn`), as bytes. */
function file(lines: (string | Uint8Array)[], torn = false): Uint8Array {
  const parts = lines.map((line) => (typeof line === "string" ? new TextEncoder().encode(line) : line));
  const out: number[] = [];
  parts.forEach((part, i) => {
    out.push(...part);
    if (!torn || i < parts.length - 1) out.push(0x0a);
  });
  return new Uint8Array(out);
}

/** A line holding a long clean string, then `bad` bytes in a kept field. */
function withBytes(id: string, bad: number[]): Uint8Array {
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(`{"type":"message","id":"${id}","parentId":"u1","label":"`), ...bad, ...encoder.encode(`","message":{"role":"user","content":"${BIG}"}}`)]);
}

const FILES: Record<string, () => Uint8Array> = {
  "long lines, CRLF on some": () => {
    writeFileSync(join(dir, "long.jsonl"), longLineText());
    chainSession(join(dir, "long.jsonl"), join(dir, "chained.jsonl"), { targetBytes: 600_000, sessionId: "long-0001", cwd: "/work/proj" });
    const text = readFileSync(join(dir, "chained.jsonl"), "utf8");
    return new TextEncoder().encode(text.split("\n").map((line, i) => (i % 7 === 3 && line !== "" ? `${line}\r` : line)).join("\n"));
  },
  "broken long lines": () =>
    file([
      HEADER,
      user("u1", null, "hi"),
      // Skimmed, then not JSON after the cut string: read again whole.
      `${user("u2", "u1", BIG)}x`,
      // A control byte in the long string: not cut.
      user("u3", "u1", `${BIG}\u0001${BIG}`),
      // Bad UTF-8 in the long string: not cut; in a kept field: cut, then read again whole.
      new Uint8Array([...new TextEncoder().encode(user("u4", "u1", BIG)).subarray(0, 5000), 0xff, ...new TextEncoder().encode(`${BIG}"}}`)]),
      withBytes("u5", [0xc3, 0x28]),
      // An escape that is no escape in a long string; a valid one.
      user("u6", "u1", `${BIG}\\q${BIG}`),
      user("u7", "u1", `${BIG}\\u00e9\\n${BIG}`),
      user("u8", "u1", BIG),
    ], true),
  "byte order mark": () => file([new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(HEADER)]), user("u1", null, BIG), user("u2", "u1", BIG)]),
  "a version 1 file": () => file([HEADER.replace(`"version":3,`, ""), `{"type":"message","timestamp":"2024-01-01T00:00:01.000Z","message":{"role":"user","content":"${BIG}"}}`, `{"type":"message","timestamp":"2024-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"${BIG}"}]}}`]),
  "blank and broken lines before the header": () => file(["", "{oops", HEADER, user("u1", null, BIG), user("u2", "u1", BIG)]),
};

const OPTIONS: Record<string, ReadOptions> = { lean: LEAN_READ, preview: PREVIEW_READ, "lean with offsets": { ...LEAN_READ, offsets: true } };

before(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-session-skim-ahead-"));
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe("readSessionAhead()", () => {
  for (const [name, make] of Object.entries(FILES)) {
    for (const [kind, options] of Object.entries(OPTIONS)) {
      it(`reads what the one-thread read does: ${name}, ${kind}`, async () => {
        const path = join(dir, `${name.replaceAll(" ", "-")}.jsonl`);
        writeFileSync(path, make());
        const expected = await readSession(fs.read(path, { reuseBuffer: true }), options);
        // Messages of 4 KB: lines longer than one, and many messages in flight.
        let read = 0;
        const ahead = await readSessionAhead(fs, path, options, (bytes) => (read += bytes), 0, 4096);
        assert.ok(ahead !== null, "the worker read it");
        assert.deepEqual(ahead, expected);
        assert.equal(read, expected.byteLength);
        assert.deepEqual(await readSessionFile(fs, path, options, undefined, 0), expected);
      });
    }
  }

  it("is not used for a small file, nor without a skim", async () => {
    const path = join(dir, "small.jsonl");
    writeFileSync(path, file([HEADER, user("u1", null, BIG)]));
    assert.equal(await readSessionAhead(fs, path, LEAN_READ), null);
    assert.equal(await readSessionAhead(fs, path, {}, undefined, 0), null);
  });

  it("leaves a missing file to the one-thread read, which says so", async () => {
    const path = join(dir, "missing.jsonl");
    assert.equal(await readSessionAhead(fs, path, LEAN_READ, undefined, 0), null);
    await assert.rejects(readSessionFile(fs, path, LEAN_READ, undefined, 0));
  });
});
