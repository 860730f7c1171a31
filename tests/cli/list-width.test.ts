/**
 * `list` on a terminal: the table fits its width, a long cwd shares it with the name, and a
 * terminal that reports 0 columns counts as 80.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CliDeps } from "../../src/cli/deps.ts";
import { run } from "../../src/cli/run.ts";
import { textWidth } from "../../src/render/text-width.ts";
import { addSession, harnessDeps, memoryFs, userEntry } from "./_harness.ts";

const NAME = "Refactor the session catalog so that listing stays fast on a cold cache";

async function listOn(columns: number, argv: string[], setup: (fs: ReturnType<typeof memoryFs>) => Promise<void>): Promise<string[]> {
  const fs = memoryFs();
  await setup(fs);
  const out = { stdout: "", stderr: "" };
  const deps: CliDeps = { ...harnessDeps({ fs, stdoutIsTTY: true, env: { NO_COLOR: "1" } }, out), columns };
  assert.equal(await run(argv, deps), 0, out.stderr);
  return out.stdout.trimEnd().split("\n");
}

test("list --all at 140 columns shares the width between a long cwd and the name", async () => {
  const deep = "/home/u/" + "a-rather-long-folder-name/".repeat(5) + "project";
  const lines = await listOn(140, ["list", "--all"], async (fs) => {
    await addSession(fs, "aaaa1111", [userEntry("u1", null, NAME)], { cwd: deep });
  });
  for (const line of lines) assert.ok(textWidth(line) <= 140, line);
  const [row] = lines.filter((line) => line.includes("Refactor"));
  const name = row.slice(row.indexOf("Refactor"));
  assert.ok(textWidth(name) >= 50, `the name has ${textWidth(name)} columns: ${row}`);
  assert.match(row, /…[^ ]*\/project  /);
});

test("list on a terminal that reports 0 columns lays out for 80", async () => {
  const lines = await listOn(0, ["list"], async (fs) => {
    await addSession(fs, "aaaa1111", [userEntry("u1", null, NAME)]);
  });
  const [row] = lines.filter((line) => line.includes("Refactor"));
  assert.ok(textWidth(row) > 60 && textWidth(row) <= 80, row);
});
