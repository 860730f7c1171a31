import assert from "node:assert/strict";
import { test } from "node:test";
import { collectInPass, collectKeepingPages, GIVE_BACK_FROM, residentBytes } from "../../src/io/collect-garbage.ts";

test("residentBytes() gives the process's resident memory, more than a megabyte on every runtime", () => {
  const bytes = residentBytes();
  assert.ok(Number.isSafeInteger(bytes), `not an integer: ${bytes}`);
  assert.ok(bytes > 1024 * 1024, `resident bytes ${bytes}`);
});

test("collectInPass() keeps the freed pages under its budget and gives them back from it on", () => {
  const made: string[] = [];
  const hooks = (resident: number) => ({ resident: () => resident, keep: () => made.push(`keep@${resident}`), giveBack: () => made.push(`give@${resident}`) });
  for (const resident of [100, 255, 256, 400]) collectInPass(256, hooks(resident));
  assert.deepEqual(made, ["keep@100", "keep@255", "give@256", "give@400"]);
});

test("collectKeepingPages() and collectInPass() run on every runtime", () => {
  collectKeepingPages();
  collectInPass();
  assert.ok(GIVE_BACK_FROM <= 300 * 1024 * 1024);
});
