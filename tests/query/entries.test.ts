/**
 * `sessionEntries()`: a session's entries in file order, a page at a time, every entry once.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { sessionEntries } from "../../src/query/entries.ts";
import { EntryNotFoundError } from "../../src/session/errors.ts";
import { addSession, assistantEntry, memoryFs, userEntry } from "../cli/_harness.ts";
import { testEnv } from "./_env.ts";

async function fiveEntries() {
  const fs = memoryFs();
  const entries = [userEntry("e1", null, "one"), assistantEntry("e2", "e1", "two"), userEntry("e3", "e2", "three"), assistantEntry("e4", "e3", "four"), userEntry("e5", "e2", "five")];
  const path = await addSession(fs, "abcd1234", entries);
  return { fs, path };
}

test("sessionEntries() pages through every entry in file order with nextAfter", async () => {
  const { fs, path } = await fiveEntries();
  const { env } = testEnv(fs);
  const ids: string[] = [];
  let after: string | undefined;
  let pages = 0;
  do {
    const { value } = await sessionEntries(env, { ref: "abcd", after, limit: 2 });
    assert.equal(value.path, path);
    assert.equal(value.id, "abcd1234");
    assert.equal(value.entryCount, 5);
    assert.equal(value.leafId, "e5");
    ids.push(...value.entries.map((e) => e.id));
    after = value.nextAfter ?? undefined;
    pages++;
  } while (after !== undefined);
  assert.deepEqual(ids, ["e1", "e2", "e3", "e4", "e5"]);
  assert.equal(pages, 3);
});

test("sessionEntries() without a limit gives them all; after the last entry, none", async () => {
  const { fs } = await fiveEntries();
  const { env } = testEnv(fs);
  const all = (await sessionEntries(env, { ref: "abcd1234" })).value;
  assert.equal(all.entries.length, 5);
  assert.equal(all.nextAfter, null);
  const none = (await sessionEntries(env, { ref: "abcd1234", after: "e5" })).value;
  assert.deepEqual([none.entries, none.nextAfter], [[], null]);
});

test("sessionEntries() takes an entry prefix for after, and refuses one that names nothing", async () => {
  const { fs } = await fiveEntries();
  const { env } = testEnv(fs);
  assert.deepEqual((await sessionEntries(env, { ref: "abcd1234", after: "e4" })).value.entries.map((e) => e.id), ["e5"]);
  await assert.rejects(sessionEntries(env, { ref: "abcd1234", after: "zz" }), EntryNotFoundError);
});
