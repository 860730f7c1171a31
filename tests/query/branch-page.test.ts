/**
 * `branchPage()`: a branch's ids root to leaf and a page of its entries, from the root or from
 * an entry further down (a jump to the end of a long branch).
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { branchPage } from "../../src/query/branch-page.ts";
import { addSession, memoryFs } from "../cli/_harness.ts";
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
