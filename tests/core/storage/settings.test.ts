/**
 * pi's settings.json: plain JSON (the usual case, parsed without the JSONC parser), JSONC with
 * comments and trailing commas, and broken files reported with line and column.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { mergeSettings, parseSettings } from "../../../src/core/storage/settings.ts";

test("plain JSON and JSONC give the same settings", async () => {
  const plain = await parseSettings('{"sessionDir": "~/s", "theme": {"name": "dark"}}');
  const jsonc = await parseSettings('\uFEFF{\n  // where sessions go\n  "sessionDir": "~/s", /* and */ "theme": {"name": "dark",},\n}\n');
  assert.deepEqual(plain, { settings: { sessionDir: "~/s", theme: { name: "dark" } }, problems: [] });
  assert.deepEqual(jsonc, plain);
});

test("a broken file counts as empty, with each problem's line and column", async () => {
  const { settings, problems } = await parseSettings('{\n  "sessionDir": "~/s"\n  "theme": 1\n}');
  assert.deepEqual(settings, {});
  assert.deepEqual(problems[0], { line: 3, column: 3, message: "CommaExpected" });
});

test("anything but an object is a problem; empty text is not", async () => {
  for (const text of ["[1, 2]", "42", '"s"', "null", "// nothing but a comment\n[]"]) {
    const { settings, problems } = await parseSettings(text);
    assert.deepEqual(settings, {}, text);
    assert.deepEqual(problems, [{ line: 1, column: 1, message: "Settings must be a JSON object" }], text);
  }
  assert.deepEqual(await parseSettings("  \n"), { settings: {}, problems: [] });
});

test("project settings merge over global ones, objects deeply", () => {
  assert.deepEqual(
    mergeSettings({ a: 1, theme: { name: "dark", size: 2 } }, { b: 2, theme: { name: "light" } }),
    { a: 1, b: 2, theme: { name: "light", size: 2 } },
  );
});

test("parseSettings() refuses settings nested deeper than any walk of them can go, JSON or JSONC", async () => {
  const deep = "[".repeat(100_000) + "]".repeat(100_000);
  for (const text of [`{"a":${deep}}`, `{ // c\n "a": ${deep}, }`]) {
    const { settings, problems } = await parseSettings(text);
    assert.deepEqual(settings, {});
    assert.deepEqual(problems, [{ line: 1, column: 1, message: "Settings nest values more than 1000 levels deep" }]);
  }
});

test("mergeSettings() merges objects 100k levels deep without recursing, copying what it changes", () => {
  const nest = (leaf: Record<string, unknown>) => {
    let value = leaf;
    for (let i = 0; i < 100_000; i++) value = { k: value };
    return value;
  };
  const base = nest({ a: 1, b: 2 });
  const merged = mergeSettings(base, nest({ b: 3 }));
  let at: Record<string, unknown> = merged;
  let was: Record<string, unknown> = base;
  for (let i = 0; i < 100_000; i++) {
    at = at.k as Record<string, unknown>;
    was = was.k as Record<string, unknown>;
  }
  assert.deepEqual(at, { a: 1, b: 3 });
  assert.deepEqual(was, { a: 1, b: 2 }, "the base is left as it was");
});
