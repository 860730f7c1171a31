/**
 * `SessionChecker` (what `check` runs as a file is read, holding no entries) reports what
 * `checkSession` reports from the entries held: a differential over the hostile corpus, the
 * example sessions, hand-made edge cases and seeded random trees full of defects.
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkSession } from "../../../src/core/check/check-entries.ts";
import { SessionChecker } from "../../../src/core/check/session-checker.ts";
import type { ReadIssue } from "../../../src/core/read/issue.ts";
import { LEAN_READ } from "../../../src/core/read/lean-entry.ts";
import { type ReadOptions, type SessionFile, SessionReader } from "../../../src/core/read/read-session.ts";
import { hostileAndExampleFiles } from "../_hostile-corpus.ts";
import { branchSummary, compaction, entry, header, jsonl, label, T0, user } from "../_builders.ts";

const SLOW = { timeout: 120_000 };
const enc = (s: string) => new TextEncoder().encode(s);

function read(bytes: Uint8Array, options?: ReadOptions): SessionFile {
  const reader = new SessionReader(options);
  // In pieces, as a file is read, so entries are checked while lines arrive.
  for (let i = 0; i < bytes.length; i += 65_536) reader.push(bytes.subarray(i, i + 65_536));
  return reader.end();
}

function streamed(bytes: Uint8Array): ReadIssue[] {
  const checker = new SessionChecker();
  return checker.issues(read(bytes, checker.readOptions));
}

/** Lines of any JSON values, after a header. */
function lines(...values: unknown[]): Uint8Array {
  return enc(values.map((v) => JSON.stringify(v) + "\n").join(""));
}

const H = header("checker");

/** Cases where the answer depends on the whole file: references, duplicates, odd ids. */
function* edgeCases(): Generator<{ name: string; bytes: Uint8Array }> {
  const e = (id: unknown, parentId: unknown, fields: Record<string, unknown> = {}) => ({ type: "custom", customType: "x", id, parentId, timestamp: T0, ...fields });
  yield { name: "a parent named before its entry", bytes: lines(H, e("b", "a"), e("a", null)) };
  yield { name: "a cycle entered from below", bytes: lines(H, e("x", "c"), e("a", "c"), e("b", "a"), e("c", "b")) };
  yield { name: "two cycles and a duplicate in one", bytes: lines(H, e("a", "b"), e("b", "a"), e("c", "d"), e("d", "c"), e("a", "c")) };
  yield { name: "numeric ids and parents", bytes: lines(H, e(5, null), e("a", 5), e(6, "a"), e("b", 6), e(7, 7), e(8, "8")) };
  yield { name: "object, array, null and boolean ids", bytes: lines(H, e({ k: 1 }, null), e([1], { k: 1 }), e(null, null), e("a", null), e(true, "a"), e("b", true), e("c", [1])) };
  yield { name: "a cycle through numeric ids", bytes: lines(H, e(1, "a"), e("a", 1)) };
  yield { name: "an entry without an id, a label without a target", bytes: lines(H, e(undefined, null), e("a", null), { type: "label", id: "l", parentId: "a", timestamp: T0 }) };
  yield { name: "a label with an object target", bytes: lines(H, e("a", null), { type: "label", id: "l", parentId: "a", timestamp: T0, targetId: { x: 1 } }) };
  yield { name: "a label on a later entry and on a missing one", bytes: lines(H, e("a", null), label("l1", "a", "b", "x"), label("l2", "l1", "zz", "y"), e("b", "l2")) };
  yield { name: "an empty parent and an empty id", bytes: lines(H, e("", null), e("a", ""), compaction("c", "a", { firstKeptEntryId: "" })) };
  yield {
    name: "compactions on and off their path, with duplicates",
    bytes: enc(jsonl(H,
      user("u1", null, "a"), user("u2", "u1", "b"), compaction("c1", "u2", { firstKeptEntryId: "u1" }),
      user("u3", null, "c"), compaction("c2", "u3", { firstKeptEntryId: "u1" }),
      user("u1", "c2", "d"), compaction("c3", "u1", { firstKeptEntryId: "u3" }),
      compaction("c4", "c4", { firstKeptEntryId: "u1" }), compaction("c5", "zz", { firstKeptEntryId: "u1" }),
      compaction("c6", "c7", { firstKeptEntryId: "nope" }), compaction("c7", "c6", { firstKeptEntryId: "nope" }),
      compaction("c1", "c1", { firstKeptEntryId: "u2" }),
    )),
  };
  yield {
    name: "branch summaries from here, from a later entry, from root and from elsewhere",
    bytes: enc(jsonl(H, user("u1", null, "a"), branchSummary("b1", "u1", "u2", "s"), user("u2", "b1", "b"), branchSummary("b2", "u2", "root", "s"), branchSummary("b3", "b2", "gone", "s"))),
  };
  yield { name: "a version 2 file (migrated whole, then checked)", bytes: lines(header("old", 2), e("a", null), e("a", "a"), { type: "label", id: "l", parentId: "a", timestamp: T0, targetId: "q" }) };
  yield { name: "a version 1 file", bytes: lines(header("v1", null), { type: "message", timestamp: T0, message: { role: "user", content: "hi" } }, { type: "note", timestamp: T0 }) };
  yield { name: "a second header without a newline at the end", bytes: enc(jsonl(H, user("u1", null, "a")) + JSON.stringify(H)) };
  yield { name: "not a session", bytes: lines(e("a", null), e("b", "a")) };
  yield { name: "an entry without a parentId and one parenting itself", bytes: lines(H, { type: "custom", customType: "x", id: "a", timestamp: T0 }, e("b", "b")) };
}

/** A seeded generator (mulberry32): the same trees on every run and runtime. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A file of `size` entries whose ids, parents and references come from a few names. */
function randomTree(seed: number, size: number): Uint8Array {
  const r = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)];
  const ids: unknown[] = ["a", "b", "c", "d", "e", "f", "g", "h", "", 1, 2, null, undefined, { o: 1 }, ["x"], true];
  const names = () => (r() < 0.85 ? pick(ids.slice(0, 9)) : pick(ids));
  const out: unknown[] = [H];
  for (let i = 0; i < size; i++) {
    const id = r() < 0.5 ? `n${i}` : names();
    const parentId = r() < 0.1 ? null : r() < 0.05 ? undefined : r() < 0.5 && i > 0 ? `n${Math.floor(r() * i)}` : names();
    const kind = r();
    const base = { id, parentId, timestamp: T0 };
    if (kind < 0.15) out.push({ type: "label", ...base, targetId: r() < 0.8 ? names() : `n${Math.floor(r() * size)}`, label: "x" });
    else if (kind < 0.3) out.push({ type: "compaction", ...base, summary: "s", tokensBefore: 1, firstKeptEntryId: r() < 0.5 ? `n${Math.floor(r() * (i + 1))}` : names() });
    else if (kind < 0.4) out.push({ type: "branch_summary", ...base, summary: "s", fromId: r() < 0.2 ? "root" : names() });
    else if (kind < 0.45) out.push({ type: "weird", ...base });
    else out.push({ type: "custom", customType: "x", ...base });
  }
  return lines(...out);
}

function* cases(): Generator<{ name: string; bytes: Uint8Array }> {
  yield* hostileAndExampleFiles();
  yield* edgeCases();
}

test("SessionChecker reports what checkSession() reports of the held entries", SLOW, () => {
  let count = 0;
  for (const c of cases()) {
    assert.deepEqual(streamed(c.bytes), checkSession(read(c.bytes, LEAN_READ)), c.name);
    count++;
  }
  assert.ok(count > 40);
});

test("SessionChecker finds the defects of random trees as checkSession() does", SLOW, () => {
  for (let seed = 1; seed <= 300; seed++) {
    const bytes = randomTree(seed, 5 + (seed % 40));
    assert.deepEqual(streamed(bytes), checkSession(read(bytes, LEAN_READ)), `seed ${seed}`);
  }
});

test("SessionChecker reports duplicate ids, missing parents, cycles and off-path compactions by line", () => {
  const bytes = enc(jsonl(H,
    user("u1", null, "a"), entry("custom", "x", "y", { customType: "c" }), entry("custom", "y", "x", { customType: "c" }),
    user("u1", null, "again"), compaction("c1", "u9", { firstKeptEntryId: "u1" }),
  ));
  assert.deepEqual(streamed(bytes).map((i) => [i.line, i.code, i.entryId]), [
    [4, "cycle", "y"],
    [5, "duplicate-id", "u1"],
    [6, "missing-parent", "c1"],
    [6, "compaction-off-path", "c1"],
  ]);
});

test("SessionChecker.readOptions leaves the reader no entry content to hold", () => {
  const checker = new SessionChecker();
  const file = read(enc(jsonl(H, user("u1", null, "a long text ".repeat(1000)), user("u2", "u1", "b"))), checker.readOptions);
  assert.equal(file.entries.length, 2);
  for (const held of file.entries) assert.deepEqual(Object.keys(held), []);
  assert.deepEqual(file.entryLines, [2, 3]);
  assert.deepEqual(checker.issues(file), []);
});
