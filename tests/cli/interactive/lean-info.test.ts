/**
 * `LeanInfos`: the picker's rows with their strings compacted are the same sessions, field for
 * field, whatever characters their strings hold.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeanInfos } from "../../../src/cli/interactive/pick/lean-info.ts";
import type { SessionInfo } from "../../../src/core/info/session-info.ts";

function session(i: number, over: Partial<SessionInfo> = {}): SessionInfo {
  return {
    path: `/s/${i}.jsonl`,
    id: `id-${i}`,
    cwd: "/home/dev/café",
    name: undefined,
    parentSessionPath: undefined,
    created: new Date(1_000 * i),
    modified: new Date(2_000 * i),
    messageCount: i,
    firstMessage: `first ${i}`,
    allMessagesText: "",
    ...over,
  };
}

test("LeanInfos.of() keeps every field of a session, one-byte, wide and missing ones alike", () => {
  const lean = new LeanInfos();
  const sessions = [
    session(1),
    session(2, { name: "naïve — “quoted” 🙂", parentSessionPath: "/s/1.jsonl", firstMessage: "fix the 日本語 parser\nplease" }),
    session(3, { cwd: "/home/dev/other", name: "  ", firstMessage: "(no messages)" }),
    session(4, { cwd: "/home/dev/café" }),
    session(5, { cwd: "", id: "" }),
  ];
  // Parsed from a text with a wide character, as the catalog's JSON gives them.
  const parsed = JSON.parse(JSON.stringify(sessions.map((s) => ({ ...s, created: s.created.getTime(), modified: s.modified.getTime(), wide: "→" }))));
  for (const [i, s] of sessions.entries()) {
    const { wide: _, created, modified, ...rest } = parsed[i];
    const fromJson: SessionInfo = { ...rest, created: new Date(created), modified: new Date(modified) };
    assert.deepEqual(lean.of(fromJson), s);
    assert.deepEqual(lean.of(s), s);
  }
});
