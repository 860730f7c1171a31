import { test } from "node:test";
import assert from "node:assert/strict";
import { indexOfByte, scanEntryKeys, stringEnd, stringValue } from "../../../src/core/read/scan-keys.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** What JSON.parse says the linking fields are (string values only, parentId also null). */
function parsed(text: string) {
  const value = JSON.parse(text);
  const keys: Record<string, unknown> = {};
  for (const name of ["type", "id", "parentId", "timestamp"]) {
    if (typeof value[name] === "string" || (name === "parentId" && value[name] === null)) keys[name] = value[name];
  }
  return keys;
}

test("scanEntryKeys() reads the linking fields as JSON.parse does, line after line", () => {
  const lines = [
    '{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user"}}',
    '{"type":"message","id":"b2","parentId":"a1","timestamp":"2026-01-01T00:00:00.000Z","message":{}}',
    '{"message":{"text":"x\\"y"},"timestamp":"2026-01-01T00:00:01.000Z","parentId":"b2","id":"c3","type":"message"}',
    '{"type":"label","id":"d\\u00e9","parentId":"c3","timestamp":"t\\n","label":"é"}',
    '{"type":"label","id":"dé","parentId":"d\\u00e9","timestamp":"t\\n"}',
    '{ "type" : "custom" , "id" : "' + "x".repeat(200) + '" , "parentId" : "dé" , "timestamp" : 5 }',
    '{"type":"custom","id":"y","parentId":"' + "x".repeat(200) + '","timestamp":"' + "z".repeat(100) + '"}',
  ];
  for (const line of lines) assert.deepEqual({ ...scanEntryKeys(bytes(line)) }, parsed(line), line);
});

test("scanEntryKeys() reads lines as pi writes them, and those that only start alike, as JSON.parse does", () => {
  const lines = [
    '{"type":"","id":"a","parentId":null,"timestamp":"t","x":1}',
    '{"type":"message","id":"a","parentId":"b","timestamp":"t"}',
    '{"type":"message","id":"dé","parentId":"b","timestamp":"t"}',
    '{"type":"message","id":"a\"b","parentId":"b","timestamp":"t"}',
    '{"type":"message","id":"a","parentId":"b\u0041","timestamp":"t"}',
    '{"type":"message","id":"a","parentId":"b","timestamp":"t\/"}',
    '{"type":"message","id":"a","parentId":7,"timestamp":"t"}',
    '{"type":"message","id":"a","parentId":null,"timestamp":1}',
    '{"type":"message","id":"a","parentId":null, "timestamp":"t"}',
    '{"type":"message","id":"a","timestamp":"t","parentId":null}',
  ];
  for (const line of lines) {
    let expected: Record<string, unknown> | null;
    try {
      expected = parsed(line);
    } catch {
      expected = null;
    }
    const keys = scanEntryKeys(bytes(line));
    if (expected === null) assert.equal(keys, null, line);
    else assert.deepEqual({ ...keys }, expected, line);
  }
});

test("scanEntryKeys() does not give back the last line's text for bytes that only look like it", () => {
  // "\u00e9" read first, then a line whose id is the lone byte 0xE9 (not UTF-8): that is U+FFFD, not "é".
  assert.equal(scanEntryKeys(bytes('{"type":"x","id":"\\u00e9","parentId":null,"timestamp":"t"}'))?.id, "é");
  const bad = new Uint8Array([...bytes('{"type":"x","id":"a","parentId":"'), 0xe9, ...bytes('","timestamp":"t"}')]);
  assert.equal(scanEntryKeys(bytes('{"type":"x","id":"é","parentId":null,"timestamp":"t"}'))?.id, "é");
  assert.equal(scanEntryKeys(bad)?.parentId, "\ufffd");
  // A backslash in the bytes is an escape, never the same text as the last string's backslash.
  scanEntryKeys(bytes('{"type":"x","id":"\\\\n","parentId":null,"timestamp":"t"}'));
  assert.equal(scanEntryKeys(bytes('{"type":"x","id":"q","parentId":"\\n","timestamp":"t"}'))?.parentId, "\n");
});

test("scanEntryKeys() answers null for a line that is not a well-formed object where it looked", () => {
  assert.equal(scanEntryKeys(bytes('["type"]')), null);
  assert.equal(scanEntryKeys(bytes('{"type":"message","id":}')), null);
  assert.equal(scanEntryKeys(bytes('{"type":"message" "id":"a"}')), null);
  assert.equal(scanEntryKeys(bytes('{"type":"mess')), null);
  assert.deepEqual({ ...scanEntryKeys(bytes("{ }")) }, {});
  assert.deepEqual({ ...scanEntryKeys(bytes('{"other":[1,{"id":"no"}],"type":"t"}')) }, { type: "t" });
});

test("indexOfByte() finds a byte near and far, and says -1 when there is none", () => {
  const text = bytes("a".repeat(100) + '"' + "b".repeat(10));
  assert.equal(indexOfByte(text, 0x22, 0), 100);
  assert.equal(indexOfByte(text, 0x22, 90), 100);
  assert.equal(indexOfByte(text, 0x22, 101), -1);
  assert.equal(indexOfByte(text, 0x61, 99), 99);
  assert.equal(stringEnd(bytes('"' + "\\\\".repeat(40) + '\\"x"'), 0), 85);
});

test("stringValue() of a lone quote (a line cut inside a string) is empty, not an error", () => {
  const b = bytes('{"id":"');
  assert.equal(stringValue(b, 6, 7), "");
  assert.equal(stringValue(bytes('""'), 0, 2), "");
  assert.equal(stringValue(bytes('"ab"'), 0, 4), "ab");
});
