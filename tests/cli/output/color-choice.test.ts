/**
 * `--color=always|never|auto`, `--no-color`, FORCE_COLOR and NO_COLOR: which one wins.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { colorEnabled } from "../../../src/cli/output/color-choice.ts";
import { addSession, assistantEntry, memoryFs, runCli, userEntry } from "../_harness.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

test("colorEnabled() puts the flag first, then FORCE_COLOR, then NO_COLOR, then the terminal", () => {
  const cases: [boolean | string | undefined, Record<string, string>, boolean, boolean][] = [
    [undefined, {}, true, true],
    [undefined, {}, false, false],
    ["auto", {}, true, true],
    [undefined, { NO_COLOR: "1" }, true, false],
    [undefined, { NO_COLOR: "" }, true, true],
    [undefined, { FORCE_COLOR: "1" }, false, true],
    [undefined, { FORCE_COLOR: "" }, false, true],
    [undefined, { FORCE_COLOR: "1", NO_COLOR: "1" }, false, true],
    [undefined, { FORCE_COLOR: "0" }, true, false],
    [undefined, { FORCE_COLOR: "false" }, true, false],
    ["always", { NO_COLOR: "1" }, false, true],
    ["never", { FORCE_COLOR: "1" }, true, false],
    [false, { FORCE_COLOR: "1" }, true, false],
  ];
  for (const [flag, env, isTTY, want] of cases) {
    assert.equal(colorEnabled({ flag, env: envOf(env), isTTY }), want, JSON.stringify({ flag, env, isTTY }));
  }
});

test("FORCE_COLOR and --color=always colour a pipe; --color=never and --no-color do not colour a terminal", async () => {
  const fs = memoryFs();
  await addSession(fs, "aaaa1111", [userEntry("u1", null, "hi"), assistantEntry("a1", "u1", "hello")]);
  const coloured = /\x1b\[/;
  assert.doesNotMatch((await runCli(["tree", "aaaa1111"], { fs })).stdout, coloured);
  assert.match((await runCli(["tree", "aaaa1111"], { fs, env: { FORCE_COLOR: "1" } })).stdout, coloured);
  assert.match((await runCli(["--color=always", "tree", "aaaa1111"], { fs })).stdout, coloured);
  assert.match((await runCli(["--color", "always", "tree", "aaaa1111"], { fs, env: { NO_COLOR: "1" } })).stdout, coloured);
  assert.doesNotMatch((await runCli(["--color=never", "tree", "aaaa1111"], { fs, stdoutIsTTY: true })).stdout, coloured);
  assert.doesNotMatch((await runCli(["--no-color", "tree", "aaaa1111"], { fs, stdoutIsTTY: true })).stdout, coloured);
  assert.match((await runCli(["--color=auto", "tree", "aaaa1111"], { fs, stdoutIsTTY: true })).stdout, coloured);
  const bad = await runCli(["--color=sometimes", "tree", "aaaa1111"], { fs });
  assert.equal(bad.code, 2);
});
