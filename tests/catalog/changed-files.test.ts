/**
 * The changed files a check keeps until each is read (src/catalog/changed-files.ts): each comes
 * back with the path and the stat it was found with.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ChangedFiles } from "../../src/catalog/changed-files.ts";

test("ChangedFiles gives back each file's path and stat in the order pushed, from a stem and a name or a whole path", () => {
  const changed = new ChangedFiles();
  assert.equal(changed.length, 0);
  changed.push("/s/--p--/", "b.jsonl", { size: 12, mtimeMs: 1767225600123.5, isFile: true, isDirectory: false, mode: 0o600 });
  changed.push("/s/--q--/a.jsonl", "", { size: 0, mtimeMs: 0, isFile: true, isDirectory: false, mode: 0o644 });
  assert.equal(changed.length, 2);
  assert.equal(changed.path(0), "/s/--p--/b.jsonl");
  assert.deepEqual(changed.stat(0), { size: 12, mtimeMs: 1767225600123.5, isFile: true, isDirectory: false, mode: 0o600 });
  assert.equal(changed.path(1), "/s/--q--/a.jsonl");
  assert.deepEqual(changed.stat(1), { size: 0, mtimeMs: 0, isFile: true, isDirectory: false, mode: 0o644 });
});

test("ChangedFiles.inPathOrder() numbers the files in their paths' order, a stem that is a prefix of another's too", () => {
  const changed = new ChangedFiles();
  const stat = { size: 1, mtimeMs: 1, isFile: true, isDirectory: false, mode: 0o600 };
  // A listing's order: project folders, newest name first in each.
  changed.push("/s/--q--/", "b.jsonl", stat);
  changed.push("/s/--q--/", "a.jsonl", stat);
  changed.push("/s/--p--/", "c.jsonl", stat);
  changed.push("/s/", "z.jsonl", stat);
  changed.push("/s/--p--/a.jsonl", "", stat);
  const order = changed.inPathOrder();
  assert.deepEqual(order.map((i) => changed.path(i)), ["/s/--p--/a.jsonl", "/s/--p--/c.jsonl", "/s/--q--/a.jsonl", "/s/--q--/b.jsonl", "/s/z.jsonl"]);
});

test("ChangedFiles tells which files the check knew had no stored record", () => {
  const changed = new ChangedFiles();
  const stat = { size: 1, mtimeMs: 1, isFile: true, isDirectory: false, mode: 0o600 };
  changed.push("/s/--p--/", "a.jsonl", stat, false);
  changed.push("/s/--p--/", "b.jsonl", stat);
  changed.push("/s/--p--/c.jsonl", "", stat, true);
  assert.deepEqual([0, 1, 2].map((i) => changed.recorded(i)), [false, true, true]);
});
