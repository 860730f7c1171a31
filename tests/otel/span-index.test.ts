/**
 * The index of a session's entries that a session is mapped with: ids as written (strings or
 * not), the last entry holding an id, the last entry making a tool call. Both kinds give the same
 * answers: a long session's (`SpanIndexer`, tables, held through its second read) and a session
 * held whole's (`indexEntries`, maps over its entries).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SessionEntry, SessionHeader } from "../../src/core/format/types.ts";
import { callerOf, entryOf, idAt, indexEntries, SpanIndexer, type SpanIndex } from "../../src/otel/span-index.ts";

const header = { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" } as SessionHeader;
const at = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
const entries = [
  { type: "message", id: "aaaa0001", parentId: null, timestamp: at(1), message: { role: "user", content: "hi" } },
  { type: "message", id: "aaaa0002", parentId: "aaaa0001", timestamp: at(2), message: { role: "assistant", content: [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }] } },
  { type: "message", id: 42, parentId: "aaaa0002", timestamp: at(3), message: { role: "toolResult", toolCallId: "call_1", content: [] } },
  { type: "message", id: "aaaa0002", parentId: "aaaa0001", timestamp: at(4), message: { role: "assistant", content: [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }, { type: "toolCall", id: "call_2", name: "ls", arguments: {} }] } },
  { type: "session_info", parentId: "aaaa0002", timestamp: at(5), name: "named" },
] as unknown as SessionEntry[];

function tableIndex(): SpanIndex {
  const indexer = new SpanIndexer();
  for (const entry of entries) indexer.add(entry);
  return indexer.done(header);
}

const kinds: [string, () => SpanIndex][] = [["indexEntries()", () => indexEntries(header, entries)], ["SpanIndexer", tableIndex]];

for (const [name, make] of kinds) {
  test(`${name} gives each entry's id as written, strings or not, and what the root span tells`, () => {
    const index = make();
    assert.equal(index.entries, 5);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => idAt(index, i)), ["aaaa0001", "aaaa0002", 42, "aaaa0002", undefined]);
    assert.deepEqual([...index.times], [1, 2, 3, 4, 5].map((n) => Date.parse(at(n))));
    assert.equal(index.name, "named");
    assert.equal(index.messages, 4);
    assert.equal(index.created, Date.parse(header.timestamp));
    assert.equal(index.last, Date.parse(at(5)));
  });

  test(`${name} finds the last entry holding an id and the last making a tool call`, () => {
    const index = make();
    assert.equal(entryOf(index, "aaaa0001"), 0);
    assert.equal(entryOf(index, "aaaa0002"), 3);
    assert.equal(entryOf(index, "42"), undefined);
    assert.equal(callerOf(index, "call_1"), 3);
    assert.equal(callerOf(index, "call_2"), 3);
    assert.equal(callerOf(index, "call_3"), undefined);
  });
}
