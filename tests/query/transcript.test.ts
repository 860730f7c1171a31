/**
 * `sessionTranscript()` paged: one branch a page at a time, and a clear error when the entry a
 * page continues after is not on the branch any more.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { QueryError } from "../../src/query/errors.ts";
import { sessionTranscript } from "../../src/query/transcript.ts";
import { addSession, assistantEntry, memoryFs, userEntry } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

/** e1 → e2 → e3 → e4 → e5, and a side branch e2 → s1 → s2 (the file's last entry, so the leaf). */
async function branched() {
  const fs = memoryFs();
  await addSession(fs, "abcd1234", [
    userEntry("e1", null, "one"),
    assistantEntry("e2", "e1", "two"),
    userEntry("e3", "e2", "three"),
    assistantEntry("e4", "e3", "four"),
    userEntry("e5", "e4", "five"),
    userEntry("s1", "e2", "side"),
    assistantEntry("s2", "s1", "side answer"),
  ]);
  return fs;
}

test("sessionTranscript() pages through a branch, root to leaf, with nextAfter", async () => {
  const { env } = testEnv(await branched());
  const ids: string[] = [];
  let after: string | undefined;
  do {
    const page = await sessionTranscript(env, { ref: "abcd", leaf: "e5", after, limit: 2 });
    assert.equal(page.value.leafId, "e5");
    ids.push(...page.value.entries.map((e) => e.id));
    after = page.nextAfter ?? undefined;
  } while (after !== undefined);
  assert.deepEqual(ids, ["e1", "e2", "e3", "e4", "e5"]);
});

test("sessionTranscript() without after or limit gives the whole branch and no nextAfter", async () => {
  const { env } = testEnv(await branched());
  const whole = await sessionTranscript(env, { ref: "abcd" });
  assert.deepEqual(whole.value.entries.map((e) => e.id), ["e1", "e2", "s1", "s2"]);
  assert.equal(whole.nextAfter, null);
});

test("sessionTranscript() refuses to continue after an entry that is not on the branch", async () => {
  const { env } = testEnv(await branched());
  await assert.rejects(
    sessionTranscript(env, { ref: "abcd", after: "e3", limit: 2 }),
    (e) => e instanceof QueryError && e.code === "not-on-branch" && e.exitCode === 2,
  );
  assert.deepEqual((await sessionTranscript(env, { ref: "abcd", after: "e2" })).value.entries.map((e) => e.id), ["s1", "s2"]);
});
