/**
 * The pager: which command, when output is tall enough, and that `--no-pager`, a pipe and a
 * pager that will not start all print the text as it is.
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { CliDeps } from "../../src/cli/deps.ts";
import { pagerCommand, tallerThan } from "../../src/cli/pager.ts";
import { run } from "../../src/cli/run.ts";
import { addSession, assistantEntry, harnessDeps, memoryFs, userEntry } from "./_harness.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

test("pagerCommand() takes $PAGER, none for an empty one or cat, else less -R", () => {
  assert.equal(pagerCommand(envOf({})), "less -R");
  assert.equal(pagerCommand(envOf({ PAGER: "most" })), "most");
  assert.equal(pagerCommand(envOf({ PAGER: "" })), undefined);
  assert.equal(pagerCommand(envOf({ PAGER: "cat" })), undefined);
});

test("tallerThan() counts wrapped lines and leaves a row for the prompt", () => {
  assert.equal(tallerThan("a\nb\n", { columns: 80, rows: 3 }), false);
  assert.equal(tallerThan("a\nb\nc\n", { columns: 80, rows: 3 }), true);
  assert.equal(tallerThan("x".repeat(200) + "\n", { columns: 80, rows: 3 }), true);
  assert.equal(tallerThan("\x1b[1m" + "x".repeat(78) + "\x1b[22m\n", { columns: 80, rows: 2 }), false);
});

async function longSession() {
  const fs = memoryFs();
  const entries = [userEntry("u0", null, "start")];
  for (let i = 1; i < 40; i++) entries.push((i % 2 ? assistantEntry : userEntry)(`e${i}`, i === 1 ? "u0" : `e${i - 1}`, `message ${i}`));
  await addSession(fs, "aaaa1111", entries);
  return fs;
}

async function runPaged(argv: string[], options: { stdoutIsTTY?: boolean; rows?: number; env?: Record<string, string>; starts?: boolean } = {}) {
  const fs = await longSession();
  const out = { stdout: "", stderr: "" };
  const paged: { command: string; text: string }[] = [];
  const deps: CliDeps = {
    ...harnessDeps({ fs, stdoutIsTTY: options.stdoutIsTTY ?? true, env: { NO_COLOR: "1", ...options.env } }, out),
    columns: 80,
    rows: options.rows ?? 24,
    page: (command, text) => {
      paged.push({ command, text });
      return Promise.resolve(options.starts ?? true);
    },
  };
  const code = await run(argv, deps);
  return { code, ...out, paged };
}

test("show, context and tree taller than the terminal go through the pager, and only they", async () => {
  for (const argv of [["show", "aaaa1111"], ["tree", "aaaa1111"], ["context", "aaaa1111"]]) {
    const r = await runPaged(argv);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.paged.length, 1, argv.join(" "));
    assert.equal(r.paged[0].command, "less -R");
    assert.match(r.paged[0].text, /message 39/);
    assert.equal(r.stdout, "", "nothing printed besides the pager");
  }
  const info = await runPaged(["info", "aaaa1111"], { rows: 5 });
  assert.deepEqual(info.paged, []);
});

test("--no-pager, a pipe, a short text, PAGER=cat and a pager that will not start print the text", async () => {
  const cases: [string[], Parameters<typeof runPaged>[1]][] = [
    [["--no-pager", "show", "aaaa1111"], {}],
    [["show", "aaaa1111"], { stdoutIsTTY: false }],
    [["show", "aaaa1111"], { rows: 500 }],
    [["show", "aaaa1111"], { env: { PAGER: "cat" } }],
    [["show", "aaaa1111"], { starts: false }],
  ];
  for (const [argv, options] of cases) {
    const r = await runPaged(argv, options);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /message 39/, JSON.stringify([argv, options]));
    if (options?.starts !== false) assert.deepEqual(r.paged, [], JSON.stringify([argv, options]));
  }
});

test("a failing paged command prints no pager and its error as before", async () => {
  const r = await runPaged(["show", "aaaa1111", "--leaf", "nope"]);
  assert.notEqual(r.code, 0);
  assert.deepEqual(r.paged, []);
  assert.match(r.stderr, /nope/);
});
