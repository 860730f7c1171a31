/**
 * `threadRows()`: forks nested under their parent, newest thread first, with no recursion over
 * how long a chain of forks is.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { threadRows } from "../../../src/cli/interactive/pick/threads.ts";
import type { SessionInfo } from "../../../src/core/info/session-info.ts";

function session(name: string, modified: number, parent?: string): SessionInfo {
  const path = `/s/${name}.jsonl`;
  return {
    path,
    id: name,
    cwd: "/w",
    ...(parent ? { parentSessionPath: `/s/${parent}.jsonl` } : {}),
    created: new Date(0),
    modified: new Date(modified),
    messageCount: 1,
    firstMessage: name,
    allMessagesText: "",
  };
}

test("threadRows() nests forks, newest thread first, with gutters", () => {
  const rows = threadRows([
    session("a", 10),
    session("b", 50),
    session("a1", 20, "a"),
    session("a2", 60, "a"),
    session("a2x", 5, "a2"),
    session("a1x", 30, "a1"),
  ], (p) => p);
  assert.deepEqual(rows.map((r) => `${r.prefix}${r.session.id}`), [
    "a",
    "   ├─ a2",
    "   │  └─ a2x",
    "   └─ a1",
    "      └─ a1x",
    "b",
  ]);
});

test("threadRows() of a chain of 100k forks does not overflow the stack", () => {
  const sessions = [session("f0", 0)];
  for (let i = 1; i < 100_000; i++) sessions.push(session(`f${i}`, i, `f${i - 1}`));
  const rows = threadRows(sessions, (p) => p);
  assert.equal(rows.length, 100_000);
  assert.equal(rows[0].session.id, "f0");
  assert.equal(rows[99_999].session.id, "f99999");
});
