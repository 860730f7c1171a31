/**
 * The secret scan on another thread (`ScanAhead`, line-scan-worker.ts): every line gets the flags
 * a scan on this thread gives it, the HTML page made with it is the page made without it, and an
 * export whose file was rewritten after the worker read it fails rather than trust old flags.
 * The worker runs on every runtime, Node with tsx included (src/io/worker-start.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chainSession } from "../../scripts/bench/chain-session.ts";
import type { SessionEntry } from "../../src/core/format/types.ts";
import { LINE_MAY_HOLD_SECRET } from "../../src/core/redact/line-scan.ts";
import { type RedactOptions, Redactor } from "../../src/core/redact/redactor.ts";
import { openExportSource } from "../../src/export/export-source.ts";
import { htmlExport } from "../../src/export/html/html-export.ts";
import { SCAN_AHEAD_FROM, ScanAhead } from "../../src/export/scan-ahead.ts";
import { detectFileSystem } from "../../src/io/mod.ts";
import { entry } from "../core/_builders.ts";
import { NOW } from "../cli/_harness.ts";
import { fixtureEntries, fixtureText } from "./_fixture.ts";

const fs = detectFileSystem();
/** Node runs the sources through tsx, whose worker is slow to start. */
const NODE = !("Bun" in globalThis) && !("Deno" in globalThis);
/** Not a secret, and as long as one that is (`ghp_` then 36 characters). */
const HARMLESS = "zzz_1234567890abcdefghijABCDEFGHIJklmnop12";
const SECRET = "ghp_1234567890abcdefghijABCDEFGHIJklmnop12";
let dir = "";
let path = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-session-scan-ahead-"));
  const entries: SessionEntry[] = fixtureEntries();
  const last = entries.at(-1)!.id;
  entries.push(
    entry("message", "s0000001", last, { message: { role: "user", content: `key AKIAIOSFODNN7EXAMPLE and <b>markup</b> in /home/ann/x`, timestamp: 16 } }),
    entry("message", "s0000002", "s0000001", { message: { role: "user", content: `plain ${HARMLESS} text`, timestamp: 17 } }),
  );
  writeFileSync(join(dir, "fixture.jsonl"), fixtureText(entries));
  path = join(dir, "chained.jsonl");
  chainSession(join(dir, "fixture.jsonl"), path, { targetBytes: 300_000, sessionId: "chained-0002", cwd: "/work/proj" });
  // Some CRLF lines: their flags are of the line without the `\r`.
  writeFileSync(path, readFileSync(path, "utf8").split("\n").map((line, i) => (i % 5 === 2 && line !== "" ? `${line}\r` : line)).join("\n"));
});

after(() => rmSync(dir, { recursive: true, force: true }));

async function page(ahead: ScanAhead | null, redactor: Redactor): Promise<string> {
  const source = await openExportSource(fs, path);
  const keep = new Set(source.tree.getPath(source.tree.leafId));
  const chunks: Uint8Array[] = [];
  for await (const chunk of htmlExport({ source, keep, leafId: source.tree.leafId, allBranches: false, redactor, redaction: { secrets: true, paths: false }, now: NOW, generator: "test", scanAhead: ahead })) {
    chunks.push(chunk.slice());
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

describe("ScanAhead", () => {
  for (const options of [{ secrets: true }, { secrets: true, paths: { home: "/home/ann", user: "ann" } }] as RedactOptions[]) {
    it(`gives every line the flags a scan here gives it (${options.paths ? "secrets and paths" : "secrets"})`, async () => {
      const ahead = await ScanAhead.start(fs, path, options, 0);
      assert.ok(ahead, "a worker starts");
      try {
        await ahead.finished;
        const bytes = readFileSync(path);
        const redactor = new Redactor(options);
        let offset = 0;
        let flagged = 0;
        for (let number = 1; offset < bytes.length; number++) {
          const newline = bytes.indexOf(0x0a, offset);
          let end = newline === -1 ? bytes.length : newline;
          if (end > offset && bytes[end - 1] === 0x0d) end--;
          const expected = redactor.scan(bytes.subarray(offset, end));
          assert.equal(ahead.flagsOf(offset, end - offset), expected, `line ${number}`);
          if (expected & LINE_MAY_HOLD_SECRET) flagged++;
          // Not where the worker saw the line: nothing to give.
          assert.equal(ahead.flagsOf(offset + 1, end - offset), -1);
          offset = newline === -1 ? bytes.length : newline + 1;
        }
        assert.ok(flagged > 0, "the fixture holds secrets");
      } finally {
        await ahead.close();
      }
    });
  }

  it("begins at the line this thread asked for when it got going, not at the first", { timeout: 60_000 }, async () => {
    const bytes = readFileSync(path);
    const lines: [number, number][] = [];
    for (let offset = 0; offset < bytes.length;) {
      const newline = bytes.indexOf(0x0a, offset);
      let end = newline === -1 ? bytes.length : newline;
      if (end > offset && bytes[end - 1] === 0x0d) end--;
      lines.push([offset, end - offset]);
      offset = newline === -1 ? bytes.length : newline + 1;
    }
    const middle = lines.length >> 1;
    const ahead = await ScanAhead.start(fs, path, { secrets: true }, 0);
    assert.ok(ahead);
    try {
      // Asked at once, before the worker has even loaded its modules: it begins at this line.
      assert.equal(ahead.flagsOf(...lines[middle]), -1);
      await ahead.finished;
      const redactor = new Redactor();
      lines.forEach(([offset, length], i) => {
        const expected = i < middle ? -1 : redactor.scan(bytes.subarray(offset, offset + length));
        assert.equal(ahead.flagsOf(offset, length), expected, `line ${i + 1}`);
      });
    } finally {
      await ahead.close();
    }
  });

  it("hands its flags to a caller that never gives the event loop a turn (as the export's loop does not)", { timeout: 120_000 }, async () => {
    const ahead = await ScanAhead.start(fs, path, { secrets: true }, 0);
    assert.ok(ahead);
    try {
      const bytes = readFileSync(path);
      const length = bytes.indexOf(0x0a);
      // No await from here on (up to a minute): a reply that comes only as a 'message' event never arrives.
      const sleep = new Int32Array(new SharedArrayBuffer(4));
      let flags = -1;
      for (let i = 0; i < 6000 && flags < 0; i++) {
        flags = ahead.flagsOf(0, length);
        if (flags < 0) Atomics.wait(sleep, 0, 0, 10);
      }
      assert.equal(flags, new Redactor().scan(bytes.subarray(0, length)));
    } finally {
      await ahead.close();
    }
  });

  it("makes the same page as a scan on this thread, with the same counts", async () => {
    const ahead = await ScanAhead.start(fs, path, { secrets: true }, 0);
    assert.ok(ahead);
    try {
      await ahead.finished;
      const [fast, slow] = [new Redactor(), new Redactor()];
      assert.equal(await page(ahead, fast), await page(null, slow));
      assert.deepEqual(fast.summary(), slow.summary());
      assert.ok(fast.total > 0);
    } finally {
      await ahead.close();
    }
  });

  it("is not started for a small file or another file system", async () => {
    assert.equal(await ScanAhead.start(fs, path, { secrets: true }), null);
    const { MemoryFileSystem } = await import("../../src/io/memory.ts");
    assert.equal(await ScanAhead.start(new MemoryFileSystem(), path, { secrets: true }, 0), null);
  });

  it("is started for a file past its size where the worker starts at once, not where it loads tsx first (Node)", async () => {
    // A sparse file: only its size is looked at before the worker starts.
    const big = join(dir, "sparse.jsonl");
    writeFileSync(big, "");
    truncateSync(big, SCAN_AHEAD_FROM + 1024 * 1024);
    const ahead = await ScanAhead.start(fs, big, { secrets: true });
    try {
      if (NODE) assert.equal(ahead, null);
      else assert.ok(ahead);
    } finally {
      await ahead?.close();
      rmSync(big, { force: true });
    }
  });

  it("fails the export when a line was rewritten after the worker read it", async () => {
    const copy = join(dir, "rewritten.jsonl");
    writeFileSync(copy, readFileSync(path));
    const ahead = await ScanAhead.start(fs, copy, { secrets: true }, 0);
    assert.ok(ahead);
    try {
      await ahead.finished;
      // The same length, a secret where there was none; another time.
      writeFileSync(copy, readFileSync(copy, "utf8").replaceAll(HARMLESS, SECRET));
      utimesSync(copy, new Date(2001, 1, 1), new Date(2001, 1, 1));
      const source = await openExportSource(fs, copy);
      const keep = new Set(source.tree.getPath(source.tree.leafId));
      const run = async () => {
        for await (const _ of htmlExport({ source, keep, leafId: source.tree.leafId, allBranches: false, redactor: new Redactor(), redaction: { secrets: true, paths: false }, now: NOW, generator: "test", scanAhead: ahead })) {
          // written nowhere
        }
      };
      await assert.rejects(run, (error: { code?: string; message?: string }) => error.code === "session-changed" && /changed while the export read it/.test(error.message ?? ""));
    } finally {
      await ahead.close();
    }
  });
});
