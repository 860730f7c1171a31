/**
 * The streamed branch (`branch-file.ts`, what `fork` and `clone` use on a current-format file)
 * writes exactly what `SessionManager.createBranchedSession` writes: a differential over the
 * hostile corpus, the example sessions and branchy sessions with labels and compactions, at every
 * leaf, old path (the whole file in memory) vs new (lean entries, the path read again).
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { walkToRoot } from "../../src/core/tree/walk-path.ts";
import { MemoryFileSystem } from "../../src/io/memory.ts";
import type { SessionEntry } from "../../src/core/format/types.ts";
import { branchBytes, type BranchSource, readBranchSource, readEntryAt } from "../../src/session/branch-file.ts";
import { sessionHeader } from "../../src/session/entry-builders.ts";
import { SessionManager } from "../../src/session/session-manager.ts";
import { hostileAndExampleFiles } from "../core/_hostile-corpus.ts";
import { compaction, entry, header, jsonl, label, user, assistant } from "../core/_builders.ts";

const SLOW = { timeout: 300_000 };
const SOURCE = "/source.jsonl";
const STAMP = new Date("2026-01-02T03:04:05.678Z");

function* cases(): Generator<{ name: string; bytes: Uint8Array }> {
  yield* hostileAndExampleFiles();
  const long = "naïve 日本語 🚀 \"quoted\" \\ ".repeat(300);
  yield {
    name: "branches, labels moved off dropped entries, a compaction kept after a label",
    bytes: new TextEncoder().encode(jsonl(header("b"),
      user("u1", null, long),
      assistant("a1", "u1", "one"),
      label("l1", "a1", "u1", "start"),
      compaction("c1", "l1", { summary: long, firstKeptEntryId: "l1", tokensBefore: 5 }),
      user("u2", "c1", "second " + long),
      label("l2", "u2", "a1", "mid"),
      label("l3", "l2", "u1", ""),
      assistant("a2", "l3", "two"),
      user("u3", "a1", "other branch"),
      label("l4", "u3", "u3", "tip"),
      entry("custom", "x1", "a2", { customType: "ext", data: { big: long } }),
    )),
  };
  // Lines spliced as they are (what JSON.stringify writes) beside lines that must be parsed: a
  // space, an escape, a number written otherwise, a repeated key; a line without `parentId`; a
  // line longer than a written piece (1 MB); a compaction naming a dropped label, spliced and not.
  const big = "é日 ".repeat(400_000);
  const lines = [
    JSON.stringify(header("s")),
    JSON.stringify(user("u1", null, "one")),
    '{"type": "message","id":"a1","parentId":"u1","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"assistant","content":[]}}',
    JSON.stringify(label("l1", "a1", "u1", "first")),
    '{"type":"compaction","id":"c1","parentId":"l1","timestamp":"2025-01-01T00:00:04.000Z","summary":"s","firstKeptEntryId":"l1","tokensBefore":1.0}',
    JSON.stringify(label("l2", "c1", "a1", "second")),
    JSON.stringify(compaction("c2", "l2", { summary: "\u00e9", firstKeptEntryId: "l2", tokensBefore: 7 })),
    '{"type":"custom","customType":"x","id":"x1","timestamp":"2025-01-01T00:00:06.000Z","data":{"t":"\u00e9\/"}}',
    JSON.stringify({ type: "custom", customType: "x", id: "x2", timestamp: "2025-01-01T00:00:07.000Z", data: { n: [1, -2.5, 1e21, null, true] } }),
    JSON.stringify(user("u2", "x2", "two")),
    '{"type":"custom","customType":"x","id":"x3","parentId":"u2","timestamp":"2025-01-01T00:00:09.000Z","data":{"k":1,"k":2}}',
    JSON.stringify(assistant("a2", "x3", "end")),
    JSON.stringify(assistant("a3", "c2", "after the compactions")),
  ];
  yield { name: "spliced and parsed lines", bytes: new TextEncoder().encode(lines.join("\n") + "\n") };
  const longLines = [
    JSON.stringify(header("s")),
    JSON.stringify(user("u1", null, big)),
    JSON.stringify({ type: "custom", customType: "x", id: "x1", timestamp: "2025-01-01T00:00:10.000Z", parentId: "u1", data: big }),
    JSON.stringify(assistant("a1", "x1", "end")),
  ];
  yield { name: "lines longer than a written piece", bytes: new TextEncoder().encode(longLines.join("\n") + "\n") };
}

/** A deterministic id source, the same for both paths. */
function ids(): () => string {
  let n = 0;
  return () => `n${(n++).toString(16).padStart(7, "0")}`;
}

async function oldBranch(bytes: Uint8Array, leafId: string): Promise<string | undefined> {
  const fs = new MemoryFileSystem();
  await fs.writeAtomic(SOURCE, bytes);
  const manager = await SessionManager.open(SOURCE, undefined, { fs, clock: () => STAMP, newId: ids(), newSessionId: () => "new-session" });
  const path = await manager.createBranchedSession(leafId);
  if (path === undefined || (await fs.stat(path)) === null) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of fs.read(path)) chunks.push(chunk);
  return new TextDecoder().decode(concat(chunks)) + `\nleaf ${manager.getLeafId()}`;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

test("branchBytes() writes what createBranchedSession writes, at every leaf", SLOW, async () => {
  let compared = 0;
  for (const c of cases()) {
    const fs = new MemoryFileSystem({ chunkSize: 4096 });
    await fs.writeAtomic(SOURCE, c.bytes);
    let source: BranchSource | null;
    try {
      source = await readBranchSource(fs, SOURCE);
    } catch {
      continue; // not a session: both paths refuse it (fork-clone tests)
    }
    if (source === null) continue;
    const leaves = [...source.index.byId.keys()];
    // Every leaf of a small file, a few of a big one (each comparison reads it whole twice).
    const step = Math.max(1, Math.floor(leaves.length / (c.bytes.length > 500_000 ? 3 : 25)));
    // Of a very big one, the last entry only: the longest path (200k entries in chain-200k).
    for (let i = c.bytes.length > 5_000_000 ? leaves.length - 1 : 0; i < leaves.length; i += step) {
      const leaf: SessionEntry = source.index.byId.get(leaves[i])!;
      const branch: SessionEntry[] = walkToRoot(leaf, source.index.byId).path;
      const offsets: number[] = branch.map((e) => source!.offsetOf.get(e)!);
      if (offsets.some((o, k) => k > 0 && o <= offsets[k - 1])) continue; // left to the old path
      const expected = await oldBranch(c.bytes, leaves[i]);
      const conversation = branch.some((e) => e.type === "message" && ["user", "assistant"].includes((e as { message?: { role?: string } }).message?.role ?? ""));
      assert.equal(expected !== undefined, conversation, `${c.name} at ${leaves[i]}: written only with a conversation`);
      if (expected === undefined) continue;
      const head = sessionHeader("new-session", STAMP.toISOString(), String(source.header.cwd), SOURCE);
      let leafId: string | null = null;
      const chunks: Uint8Array[] = [];
      for await (const chunk of branchBytes(fs, SOURCE, offsets, head, source.index.labels, ids(), (id: string | null) => leafId = id)) chunks.push(chunk.slice());
      assert.equal(new TextDecoder().decode(concat(chunks)) + `\nleaf ${leafId}`, expected, `${c.name} at ${leaves[i]}`);
      compared++;
    }
  }
  assert.ok(compared > 40, `compared ${compared} branches`);
});

test("readEntryAt() reads one entry whole, as the file holds it", async () => {
  const fs = new MemoryFileSystem({ chunkSize: 7 });
  const text = "x".repeat(5000);
  await fs.writeAtomic(SOURCE, new TextEncoder().encode(jsonl(header("r"), user("u1", null, "hi"), user("u2", "u1", text))));
  const source = (await readBranchSource(fs, SOURCE))!;
  const lean = source.index.byId.get("u2")!;
  assert.notDeepEqual(lean, user("u2", "u1", text)); // the text was cut
  assert.deepEqual(await readEntryAt(fs, SOURCE, source.offsetOf.get(lean)!), user("u2", "u1", text));
});

test("readBranchSource() leaves an old-format file and a label that is not a string to the in-memory way", async () => {
  const fs = new MemoryFileSystem();
  await fs.writeAtomic("/v1.jsonl", new TextEncoder().encode(jsonl({ type: "session", id: "old", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/" },
    { type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: { role: "user", content: "hi" } })));
  assert.equal(await readBranchSource(fs, "/v1.jsonl"), null);
  await fs.writeAtomic("/odd.jsonl", new TextEncoder().encode(jsonl(header("odd"), user("u1", null, "hi"), { ...label("l1", "u1", "u1", "x"), label: { nested: "y".repeat(3000) } })));
  assert.equal(await readBranchSource(fs, "/odd.jsonl"), null);
  await fs.writeAtomic("/fine.jsonl", new TextEncoder().encode(jsonl(header("fine"), user("u1", null, "hi"), label("l1", "u1", "u1", "x"))));
  assert.notEqual(await readBranchSource(fs, "/fine.jsonl"), null);
});
