/**
 * Tests for the format migrations: v1 ids and chain, compaction index -> id, the v2 role
 * rename, and the promises the steps make (pure, deterministic, idempotent, collision-free).
 * @module
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { deriveEntryId, type FileObject, migrateSession, MIGRATIONS, v1ToV2, v2ToV3 } from "../../../src/core/mod.ts";
import { header, user } from "../_builders.ts";

const HEX8 = /^[0-9a-f]{8}$/;

/** A version 1 entry: no id, no parentId. */
function v1(type: string, fields: FileObject = {}): FileObject {
  return { type, timestamp: "2024-01-01T00:00:00.000Z", ...fields };
}

function v1Message(text: string): FileObject {
  return v1("message", { message: { role: "user", content: text, timestamp: 0 } });
}

/** Header (index 0), three messages (1-3), a compaction (4) keeping from `index`, one more message (5). */
function v1File(index: unknown): FileObject[] {
  return [
    header("s1", null),
    v1Message("one"),
    v1Message("two"),
    v1Message("three"),
    v1("compaction", { summary: "s", tokensBefore: 10, firstKeptEntryIndex: index }),
    v1Message("four"),
  ];
}

/** Builder output as the plain objects a migration takes. */
function file(...objects: unknown[]): FileObject[] {
  return objects as FileObject[];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

test("migrateSession() gives v1 entries 8-hex ids chained in file order", () => {
  const { objects, migrated, fromVersion } = migrateSession(v1File(1), "s1");
  assert.equal(migrated, true);
  assert.equal(fromVersion, 1);
  assert.equal(objects.length, 6);
  assert.equal(objects[0].version, 3);
  assert.equal(objects[0].id, "s1");
  let previous: unknown = null;
  for (const object of objects.slice(1)) {
    assert.match(object.id as string, HEX8);
    assert.equal(object.parentId, previous);
    previous = object.id;
  }
  assert.equal(new Set(objects.map((o) => o.id)).size, 6);
});

test("migrateSession() appends version to the end of a v1 header's keys, as pi does", () => {
  const { objects } = migrateSession(v1File(1), "s1");
  assert.deepEqual(Object.keys(objects[0]), ["type", "id", "timestamp", "cwd", "version"]);
  assert.deepEqual(Object.keys(objects[1]), ["type", "timestamp", "message", "id", "parentId"]);
});

test("migrateSession() turns firstKeptEntryIndex (header = 0) into firstKeptEntryId", () => {
  for (const index of [1, 2, 3]) {
    const { objects } = migrateSession(v1File(index), "s1");
    const compaction = objects[4];
    assert.equal(compaction.firstKeptEntryId, objects[index].id, `index ${index}`);
    assert.equal("firstKeptEntryIndex" in compaction, false);
  }
});

test("migrateSession() maps an index naming the compaction itself to its own id (retain none)", () => {
  const { objects } = migrateSession(v1File(4), "s1");
  assert.equal(objects[4].firstKeptEntryId, objects[4].id);
});

test("migrateSession() drops an index that points at the header, out of range, or ahead", () => {
  // An index naming a later entry resolves to nothing in pi: it reads the id before assigning it.
  for (const index of [0, 5, 6, 99, -1, 1.5]) {
    const { objects } = migrateSession(v1File(index), "s1");
    assert.deepEqual(Object.keys(objects[4]), ["type", "timestamp", "summary", "tokensBefore", "id", "parentId"], `index ${index}`);
  }
});

test("migrateSession() leaves a non-numeric firstKeptEntryIndex in place, as pi does", () => {
  for (const index of ["2", null]) {
    const { objects } = migrateSession(v1File(index), "s1");
    assert.equal(objects[4].firstKeptEntryIndex, index);
    assert.equal("firstKeptEntryId" in objects[4], false);
  }
});

test("migrateSession() keeps a firstKeptEntryId a v1 compaction already has when the index resolves to nothing", () => {
  const file = v1File(0);
  file[4] = { ...file[4], firstKeptEntryId: "kept" };
  assert.equal(migrateSession(file, "s1").objects[4].firstKeptEntryId, "kept");
});

test("migrateSession() renames the v2 role hookMessage to custom and sets version 3", () => {
  const hook = { role: "hookMessage", customType: "x", content: "c", display: true, timestamp: 0 };
  const input = file(header("s1", 2), user("u1", null, "hi"), { type: "message", id: "h1", parentId: "u1", timestamp: "t", message: hook });
  const { objects, migrated, fromVersion } = migrateSession(input, "s1");
  assert.equal(migrated, true);
  assert.equal(fromVersion, 2);
  assert.equal(objects[0].version, 3);
  assert.deepEqual(objects[1], input[1]);
  assert.deepEqual(objects[2], { ...input[2], message: { ...hook, role: "custom" } });
  assert.deepEqual(objects.map((o) => o.id), ["s1", "u1", "h1"]);
});

test("migrateSession() runs both steps on v1, renaming hookMessage too", () => {
  const input = [header("s1", null), v1("message", { message: { role: "hookMessage", content: "c" } })];
  const { objects } = migrateSession(input, "s1");
  assert.equal((objects[1].message as FileObject).role, "custom");
});

test("migrateSession() returns a current file as the same array, not migrated", () => {
  const input = file(header("s1", 3), user("u1", null, "hi"));
  const result = migrateSession(input, "s1");
  assert.equal(result.objects, input);
  assert.equal(result.migrated, false);
  assert.equal(result.fromVersion, 3);
});

test("migrateSession() is deterministic: the same input twice gives the same ids", () => {
  assert.deepEqual(migrateSession(v1File(2), "s1"), migrateSession(v1File(2), "s1"));
});

test("migrateSession() is idempotent: migrating its output changes nothing", () => {
  for (const input of [v1File(2), file(header("s1", 2), user("u1", null, "x"))]) {
    const once = migrateSession(input, "s1").objects;
    const twice = migrateSession(once, "s1");
    assert.equal(twice.migrated, false);
    assert.deepEqual(twice.objects, once);
  }
});

test("migrateSession() never mutates its input", () => {
  const hook = { type: "message", timestamp: "t", message: { role: "hookMessage", content: "c" } };
  for (const input of [v1File(2), [header("s1", 2), { ...hook, id: "h1", parentId: null }], [header("s1", null), hook]]) {
    const copy = structuredClone(input);
    deepFreeze(input);
    migrateSession(input, "s1");
    assert.deepEqual(input, copy);
  }
});

test("migrateSession() gives different sessions different ids", () => {
  const a = migrateSession(v1File(2), "session-a").objects.slice(1).map((o) => o.id);
  const b = migrateSession(v1File(2), "session-b").objects.slice(1).map((o) => o.id);
  for (const id of a) assert.equal(b.includes(id), false);
});

test("migrateSession() keeps ids unique across a large v1 file", { timeout: 60_000 }, () => {
  const input = [header("big", null), ...Array.from({ length: 20_000 }, (_, i) => v1Message(String(i)))];
  const ids = migrateSession(input, "big").objects.slice(1).map((o) => o.id);
  assert.equal(new Set(ids).size, ids.length);
});

test("migrateSession() treats a stray session line in a v1 file as a header, without an id", () => {
  const input = [header("s1", null), v1Message("a"), header("s2", null), v1Message("b")];
  const { objects } = migrateSession(input, "s1");
  assert.equal(objects[2].version, 3);
  assert.equal(objects[2].id, "s2");
  assert.equal(objects[3].parentId, objects[1].id);
});

test("deriveEntryId() is a pure function of session id and position", () => {
  const id = deriveEntryId("s1", 3, new Set());
  assert.match(id, HEX8);
  assert.equal(deriveEntryId("s1", 3, new Set()), id);
  assert.notEqual(deriveEntryId("s1", 4, new Set()), id);
  assert.notEqual(deriveEntryId("s2", 3, new Set()), id);
});

test("deriveEntryId() skips ids already taken and records the one it picks", () => {
  const first = deriveEntryId("s1", 3, new Set());
  const taken = new Set([first]);
  const second = deriveEntryId("s1", 3, taken);
  assert.match(second, HEX8);
  assert.notEqual(second, first);
  assert.deepEqual([...taken], [first, second]);
  const third = deriveEntryId("s1", 3, taken);
  assert.equal(new Set([first, second, third]).size, 3);
  assert.equal(taken.size, 3);
});

test("MIGRATIONS lists the steps as data, oldest first", () => {
  assert.deepEqual(MIGRATIONS.map(({ from, to }) => [from, to]), [[1, 2], [2, 3]]);
  assert.equal(MIGRATIONS[0], v1ToV2);
  assert.equal(MIGRATIONS[1], v2ToV3);
});

test("v2ToV3 leaves non-message entries and message: null alone", () => {
  const input = [header("s1", 2), { type: "message", id: "m", parentId: null, timestamp: "t", message: null }];
  const out = v2ToV3.migrate(input, "s1");
  assert.equal(out[1], input[1]);
});
