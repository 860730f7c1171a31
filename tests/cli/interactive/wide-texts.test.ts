/**
 * `WideTexts`: texts kept as UTF-8 in shared blocks come back as they were, across blocks, and
 * the ones UTF-8 cannot hold or a block cannot fit are refused (their caller keeps them as strings).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { WideTexts } from "../../../src/cli/interactive/pick/wide-texts.ts";
import { LeanInfos } from "../../../src/cli/interactive/pick/lean-info.ts";
import type { SessionInfo } from "../../../src/core/info/session-info.ts";

test("WideTexts gives back every text it kept, over many blocks, a leading U+FEFF and emoji included", () => {
  const texts = new WideTexts();
  const kept: [number, string][] = [];
  for (let i = 0; i < 3000; i++) {
    const text = i % 7 === 0 ? `\ufeff日本語 ${i}` : `fix the 日本語 parser 😀 ${"x".repeat(i % 300)} ${i}`;
    kept.push([texts.add(text)!, text]);
  }
  kept.push([texts.add("")!, ""]);
  // A text near the size of a block, encoded to be sure it fits.
  const big = "日".repeat(21_000);
  kept.push([texts.add(big)!, big]);
  for (const [at, text] of kept) assert.equal(texts.text(at), text);
});

test("WideTexts refuses a text with a lone surrogate and one longer than a block", () => {
  const texts = new WideTexts();
  assert.equal(texts.add("broken \ud83d"), undefined);
  assert.equal(texts.add("\ude00 broken"), undefined);
  assert.equal(texts.add("日".repeat(30_000)), undefined);
  assert.equal(texts.text(texts.add("paired 😀")!), "paired 😀");
});

test("LeanInfos.of() keeps a wide first message the same through spread, JSON and a text it cannot keep", () => {
  const lean = new LeanInfos();
  const session = (firstMessage: string): SessionInfo => ({
    path: "/s/1.jsonl",
    id: "1",
    cwd: "/w",
    created: new Date(1),
    modified: new Date(2),
    messageCount: 1,
    firstMessage,
    allMessagesText: "",
  });
  for (const first of ["fix the 日本語 parser", "lone \ud83d surrogate 日本語", "日".repeat(30_000), "plain", "\ufeff日本語"]) {
    const row = lean.of(session(first));
    assert.equal(row.firstMessage, first);
    const { allMessagesText: _, ...rest } = row;
    assert.equal(rest.firstMessage, first);
    // Its fields in the session's order: the first page kept for the next start is the same text.
    assert.deepEqual(Object.keys(row), [...Object.keys(session(first)), "name", "parentSessionPath"]);
    assert.equal(JSON.stringify(row), JSON.stringify({ ...session(first), name: undefined, parentSessionPath: undefined }));
  }
});
