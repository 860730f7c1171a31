/**
 * `branchPage()`: a branch's ids root to leaf and a page of its entries, from the root or from
 * an entry further down (a jump to the end of a long branch); read through the line index, it
 * equals what the whole file read gives, for the default leaf and others, with a line still
 * being written.
 * @module
 */
import assert from "node:assert/strict";
import { it, test } from "node:test";
import { branchPage } from "../../src/query/branch-page.ts";
import type { QueryEnv } from "../../src/query/env.ts";
import { loadSession } from "../../src/query/load.ts";
import { resolveEntryRef } from "../../src/query/resolve/entry-ref.ts";
import { SessionIndexes } from "../../src/query/session-indexes.ts";
import { addSession, assistantEntry, header, jsonl, memoryFs, userEntry } from "../cli/_harness.ts";
import { fixtureText, MAIN_BRANCH, SESSION_ID, SIDE_BRANCH } from "../export/_fixture.ts";
import { testEnv } from "./_env.ts";

async function fixture() {
  const fs = memoryFs();
  await addSession(fs, SESSION_ID, [], { cwd: "/home/u/proj", text: fixtureText() });
  return testEnv(fs).env;
}

test("branchPage() gives the branch's first entries, or those from an entry of it on", async () => {
  const env = await fixture();
  const first = await branchPage(env, { ref: SESSION_ID, limit: 3 });
  assert.deepEqual(first.branch, MAIN_BRANCH);
  assert.equal(first.start, 0);
  assert.deepEqual(first.entries.map((e) => e.id), MAIN_BRANCH.slice(0, 3));
  const later = await branchPage(env, { ref: SESSION_ID, from: "a0000003", limit: 3 });
  assert.equal(later.start, MAIN_BRANCH.indexOf("a0000003"));
  assert.deepEqual(later.entries.map((e) => e.id), MAIN_BRANCH.slice(later.start, later.start + 3));
  const end = await branchPage(env, { ref: SESSION_ID, leaf: "a0000004", from: "u0000002", limit: 50 });
  assert.deepEqual(end.entries.map((e) => e.id), SIDE_BRANCH.slice(SIDE_BRANCH.indexOf("u0000002")));
});

test("branchPage() starts at the root when `from` is not on the branch, and refuses an entry the session lacks", async () => {
  const env = await fixture();
  const page = await branchPage(env, { ref: SESSION_ID, from: "a0000004", limit: 2 });
  assert.equal(page.start, 0);
  assert.deepEqual(page.entries.map((e) => e.id), MAIN_BRANCH.slice(0, 2));
  await assert.rejects(branchPage(env, { ref: SESSION_ID, from: "zzzzzzzz" }), (e: Error & { exitCode?: number }) => e.exitCode === 2);
});

const ID = "b4a9c400-0000-4000-8000-000000000001";

/** The page as the whole file read gives it. */
async function expected(env: QueryEnv, leaf: string | undefined, limit: number) {
  const { path, file, tree } = await loadSession(env, ID);
  const leafId = leaf !== undefined ? resolveEntryRef(tree, leaf, path) : tree.leafId;
  const branch = tree.getPath(leafId);
  const wanted = new Set(branch.slice(0, limit));
  return { path, id: file.header!.id, name: tree.sessionName ?? null, leafId, branch: branch.map((e) => e.id), start: 0, entries: file.entries.filter((e) => wanted.has(e)) };
}

const entries = [
  userEntry("e1", null, "one"),
  assistantEntry("e2", "e1", "two"),
  userEntry("s1", "e1", "a side branch"),
  { type: "label", id: "l1", parentId: "e2", timestamp: "2025-06-01T10:00:09.000Z", targetId: "s1", label: "side" },
  userEntry("e3", "e2", "three"),
  { type: "session_info", id: "n1", parentId: "e3", timestamp: "2025-06-01T10:00:09.000Z", name: "Named" },
  assistantEntry("e4", "n1", "four"),
];

for (const [name, text] of [
  ["a sound file", jsonl(header(ID), ...entries)],
  ["a last line without its newline", jsonl(header(ID), ...entries).trimEnd()],
  ["a version 2 file (read whole)", jsonl({ ...header(ID), version: 2 }, ...entries)],
] as const) {
  it(`branchPage() through the line index equals the whole file read: ${name}`, async () => {
    const fs = memoryFs();
    await addSession(fs, ID, [], { text });
    const { env } = testEnv(fs);
    const kept: QueryEnv = { ...env, sessionIndexes: new SessionIndexes() };
    for (const [leaf, limit] of [[undefined, 200], [undefined, 2], ["s1", 200], ["label:side", 1], ["e2", 200]] as const) {
      const want = await expected(env, leaf, limit);
      for (const on of [env, kept]) {
        const { size, ...page } = await branchPage(on, { ref: ID, leaf, limit });
        assert.deepEqual(page, want, `leaf ${leaf}, limit ${limit}`);
        assert.equal(size, new TextEncoder().encode(text).length);
      }
    }
  });
}
