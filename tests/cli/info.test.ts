/**
 * `info`'s message counts: the lines under "Messages" add up to the total.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "./_harness.ts";

test("info lists bash executions and other roles, so the message breakdown adds up to the total", async () => {
  const fs = memoryFs();
  const bash = { type: "message", id: "b1", parentId: "a1", timestamp: "2025-06-01T10:00:03.000Z", message: { role: "bashExecution", command: "ls", output: "x", exitCode: 0, cancelled: false, truncated: false, timestamp: 1748772003000 } };
  await addSession(fs, "aaaa1111", [userEntry("u1", null, "hi"), assistantEntry("a1", "u1", "hello"), bash]);
  const run = await runCli(["info", "aaaa1111"], { fs });
  assert.equal(run.code, 0, run.stderr);
  const section = run.stdout.split("Messages\n")[1].split("\n\n")[0];
  assert.match(section, /Total: 3/);
  assert.match(section, /Bash executions: 1/);
  const parts = [...section.matchAll(/^ {2}(?!Total)[^:]+: (\d+)(?: calls, (\d+) results)?/gm)].map((m) => Number(m[2] ?? m[1]));
  assert.equal(parts.reduce((a, b) => a + b, 0), 3, section);
});
