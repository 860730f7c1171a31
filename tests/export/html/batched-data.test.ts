/**
 * The HTML export's batched path (`ExportSource.lineBatches`: lines read by the byte ranges the
 * light pass found, a run of untouched neighbouring lines copied into the data blocks in one
 * piece) writes byte for byte what the line-by-line path writes, on a chained session (branches,
 * labels, a compaction, markup) with secrets hidden where a fast scan might miss them: behind
 * `\u` escapes, inside a `\u` escape split word, in tool output, in a thinking block, in a label,
 * on a CRLF line, next to a `<`. Every secret is masked in the page.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chainSession } from "../../../scripts/bench/chain-session.ts";
import type { SessionEntry } from "../../../src/core/format/types.ts";
import { Redactor } from "../../../src/core/redact/redactor.ts";
import { type ExportSource, openExportSource } from "../../../src/export/export-source.ts";
import { htmlExport } from "../../../src/export/html/html-export.ts";
import { MemoryFileSystem } from "../../../src/io/memory.ts";
import { at, entry, label } from "../../core/_builders.ts";
import { CWD, NOW, writeText } from "../../cli/_harness.ts";
import { fixtureEntries, fixtureText, parseHtmlExport } from "../_fixture.ts";

/** Secrets as the session's JSON text spells them (some behind escapes), and what they decode to. */
const HIDDEN = {
  toolOutput: "ghp_1234567890abcdefghijABCDEFGHIJklmnop12",
  thinking: "AKIAIOSFODNN7EXAMPLE",
  label: "DATABASE_PASSWORD=hunter2xyz",
  escaped: "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
  split: "Bearer abcdef1234567890ABCDEF.ghij",
  nearMarkup: "sk-ant-api03-AbCdEfGh1234567890abcdefghijKLMNOP-xyz_AA",
};

function sessionEntries(): SessionEntry[] {
  const entries = fixtureEntries();
  const last = entries.at(-1)!.id;
  const thinking = { role: "assistant", content: [{ type: "thinking", thinking: `the key is ${HIDDEN.thinking} ok` }, { type: "text", text: "Done." }], api: "x", provider: "x", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 20 };
  return [
    ...entries,
    entry("message", "h0000001", last, { message: { role: "toolResult", toolCallId: "c", toolName: "bash", content: [{ type: "text", text: `log: ${HIDDEN.toolOutput}\nESCAPED ${HIDDEN.escaped}` }], isError: false, timestamp: 16 } }, { timestamp: at(16) }),
    entry("message", "h0000002", "h0000001", { message: thinking }, { timestamp: at(17) }),
    { ...label("h0000003", "h0000002", "h0000002", `label ${HIDDEN.label}`), timestamp: at(18) },
    entry("message", "h0000004", "h0000003", { message: { role: "user", content: `curl -H "Authorization: SPLIT" <b>x</b> ${HIDDEN.nearMarkup}</script>`, timestamp: 19 } }, { timestamp: at(19) }),
  ];
}

const VARIANTS: Record<string, string> = {};
let dir = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-session-batched-html-"));
  const source = join(dir, "fixture.jsonl");
  writeFileSync(source, fixtureText(sessionEntries()));
  chainSession(source, join(dir, "chained.jsonl"), { targetBytes: 200_000, sessionId: "chained-0001", cwd: "/work/proj" });
  // Escapes after chaining (which writes its lines again): a secret whose first characters are
  // `\u` escapes, and one split in the middle by an escape.
  const chained = readFileSync(join(dir, "chained.jsonl"), "utf8")
    .replaceAll("xoxb-", "\\u0078\\u006fxb-")
    .replaceAll("SPLIT", HIDDEN.split.replace("Bearer", "Be\\u0061rer"));
  VARIANTS.plain = chained;
  // Every seventh line ends in CRLF: such a line is never run together with the next one.
  VARIANTS.crlf = chained.split("\n").map((line, i) => (i % 7 === 3 && line !== "" ? `${line}\r` : line)).join("\n");
  // A torn last line, which the light pass drops.
  VARIANTS.torn = `${chained}{"type":"message","id":"torn0001","parentId":"h0000004","timestamp":"2026`;
});

after(() => rmSync(dir, { recursive: true, force: true }));

async function exported(source: ExportSource, keep: ReadonlySet<SessionEntry>, leafId: string | null, redactor: Redactor | null, blockBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of htmlExport({ source, keep, leafId, allBranches: false, redactor, redaction: { secrets: redactor !== null, paths: false }, now: NOW, generator: "test", blockBytes })) {
    // Copied: blocks are buffers the export reuses.
    chunks.push(chunk.slice());
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

describe("htmlExport() batched and line by line", () => {
  for (const variant of ["plain", "crlf", "torn"]) {
    it(`writes the same bytes either way (${variant}: branches, block sizes, with and without redaction)`, async () => {
      const fs = new MemoryFileSystem({ cwd: CWD, chunkSize: 997 });
      const path = `${CWD}/${variant}.jsonl`;
      await writeText(fs, path, VARIANTS[variant]);
      const source = await openExportSource(fs, path);
      assert.ok(source.lineBatches, "a version 3 file has the batched path");
      const lineByLine: ExportSource = { ...source, lineBatches: undefined };
      const { tree } = source;
      const keeps: [string | null, ReadonlySet<SessionEntry>][] = [
        [tree.leafId, new Set(tree.getPath(tree.leafId))],
        ["a0000004", new Set(tree.getPath("a0000004"))],
        [tree.leafId, new Set(tree.entries)],
      ];
      for (const [leafId, keep] of keeps) {
        for (const blockBytes of [4 * 1024 * 1024, 4096 + 7, 1000]) {
          for (const redacting of [true, false]) {
            const fast = redacting ? new Redactor() : null;
            const slow = redacting ? new Redactor() : null;
            const batched = await exported(source, keep, leafId, fast, blockBytes);
            const expected = await exported(lineByLine, keep, leafId, slow, blockBytes);
            assert.equal(batched, expected, `${leafId}, ${keep.size} entries, blocks of ${blockBytes}, redacting ${redacting}`);
            assert.deepEqual(fast?.summary(), slow?.summary());
          }
        }
      }
    });
  }

  it("masks every hidden secret in the page, in every place", async () => {
    const fs = new MemoryFileSystem({ cwd: CWD, chunkSize: 997 });
    const path = `${CWD}/plain.jsonl`;
    await writeText(fs, path, VARIANTS.plain);
    const source = await openExportSource(fs, path);
    const html = await exported(source, new Set(source.tree.entries), source.tree.leafId, new Redactor(), 1000);
    const decoded = JSON.stringify(parseHtmlExport(html).entries);
    for (const [place, secret] of Object.entries(HIDDEN)) {
      const tail = secret.slice(-12);
      assert.ok(!decoded.includes(tail) && !html.includes(tail), `the secret ${place} came through`);
    }
    // The same text without secrets comes through: the page holds the entries.
    assert.ok(decoded.includes("the key is"));
    // And without redaction every one of them is there (the test plants what it means to).
    const plain = await exported(source, new Set(source.tree.entries), source.tree.leafId, null, 1000);
    const plainDecoded = JSON.stringify(parseHtmlExport(plain).entries);
    for (const [place, secret] of Object.entries(HIDDEN)) assert.ok(plainDecoded.includes(secret.slice(-12)), `${place} not planted`);
  });
});
